#!/usr/bin/env bash
# options.sh - every command rejects a bad --seed, --device or --reps the
# same way (one options module, src/util/options.c): exit 2, nothing on
# stdout, one line on stderr that after "gemmprof: " and the command's own
# "COMMAND: " reads exactly the same message.  Parsing comes before any GPU
# is touched: with no device visible (CUDA_VISIBLE_DEVICES=) a GPU call
# would answer "no CUDA device" instead, so this runs alike with a GPU.
. "$(dirname "$0")/lib.sh"
export CUDA_VISIBLE_DEVICES=
# dist starts MPI before it parses; Open MPI leaks in its components (as in
# dist.sh and help.sh: no leak checking for it in an ASan build).
asan=${ASAN_OPTIONS-}

ULL=18446744073709551615

# rejects NAME MESSAGE -- CMD...: exit 2, empty stdout, one stderr line
# that is "gemmprof: [WORD: ]MESSAGE".
rejects() {
    local name=$1 want=$2; shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?
    local lines got
    lines=$(wc -l <"$TMP/err")
    got=$(sed -E 's/^gemmprof: ((run|sweep|probe|dist|plot|report|diff|trace): )?//' "$TMP/err")
    if [ "$rc" != 2 ]; then fail "$name" "exit $rc, wanted 2: $(head -c 200 "$TMP/err")"
    elif [ -s "$TMP/out" ]; then fail "$name" "stdout: $(head -c 200 "$TMP/out")"
    elif [ "$lines" != 1 ]; then fail "$name" "$lines stderr lines: $(head -c 300 "$TMP/err")"
    elif [ "$got" != "$want" ]; then fail "$name" "got '$got', wanted '$want'"
    else pass "$name"; fi
}

# The words of the commands: "" is the default command (gemmprof --seed ...).
cmd() { [ "$1" = default ] && echo "" || echo "$1"; }

for c in default run sweep dist; do
    [ "$c" = dist ] && export ASAN_OPTIONS=${asan:+$asan:}detect_leaks=0 || export ASAN_OPTIONS=$asan
    w=$(cmd "$c")
    for v in -5 18446744073709551616 12x ''; do
        rejects "options/$c/seed_${v:-empty}" "--seed: '$v' is not an integer in 0..$ULL" -- \
            "$GP" $w --seed "$v"
    done
    rejects "options/$c/seed_missing" "option '--seed' needs an argument" -- "$GP" $w --seed
done

for c in default run sweep probe; do
    export ASAN_OPTIONS=$asan
    w=$(cmd "$c")
    for v in 1024 -1 gpu0 2147483648; do
        rejects "options/$c/device_$v" "--device: '$v' is not an integer in 0..1023" -- \
            "$GP" $w --device "$v"
    done
    rejects "options/$c/device_missing" "option '--device' needs an argument" -- "$GP" $w --device
done

for c in default run sweep dist probe; do
    [ "$c" = dist ] && export ASAN_OPTIONS=${asan:+$asan:}detect_leaks=0 || export ASAN_OPTIONS=$asan
    w=$(cmd "$c")
    hi=1000000
    [ "$c" = probe ] && hi=10000        # probe's reps are whole STREAM passes
    for v in 0 -3 5x 1000001 99999999999999999999; do
        rejects "options/$c/reps_$v" "--reps: '$v' is not an integer in 1..$hi" -- \
            "$GP" $w --reps "$v"
    done
    rejects "options/$c/reps_missing" "option '--reps' needs an argument" -- "$GP" $w --reps
done
export ASAN_OPTIONS=$asan

# Commands without the option name it as unknown, in the same words.
for c in plot report diff trace; do
    rejects "options/$c/seed_unknown" "unknown option '--seed'" -- "$GP" "$c" --seed 1
done

# The limits themselves are accepted (a dry run: options checked, nothing run).
expect options/default/limits_accepted 0 'options valid' -- \
    "$GP" --dry-run -k naive -s 64 --seed "$ULL" --device 1023 --reps 1000000 --warmup 0
expect options/sweep/limits_accepted 0 'options valid' -- \
    "$GP" --dry-run sweep -k blocktile_2d -s 64 --seed "$ULL" --device 1023 --reps 1000000
expect options/probe/limits_accepted 0 'options valid' -- \
    "$GP" --dry-run probe --device 1023 --reps 10000
ASAN_OPTIONS=${asan:+$asan:}detect_leaks=0 expect options/dist/limits_accepted 0 'options valid' -- \
    "$GP" --dry-run dist --size 8 --local cpu_naive --seed "$ULL" --reps 1000000
ASAN_OPTIONS=${asan:+$asan:}detect_leaks=0 expect options/dist/seed_0_accepted 0 'options valid' -- \
    "$GP" --dry-run dist --size 8 --local cpu_naive --seed 0
