#!/usr/bin/env bash
# trace_harm.sh - gemmprof trace does no harm inside the application: a test
# application (tests/fixtures/trace/harm.cu, built here with nvcc) does what
# real ones do (an invalid launch, fork then exit, fork then exec, a
# DataLoader-style worker pool, threads launching while main exits), plain
# and under trace with the default metrics and with --metrics none; each
# traced run exits as the plain one did, prints the same, ends within the
# timeout (a hang is exit 124), and leaves a well-formed run file with the
# rows of its launches (--per-launch: a row each).
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
GP=$(cd "$(dirname "$GP")" && pwd)/$(basename "$GP")
cd "$TMP" || exit 1
unset CUDA_INJECTION64_PATH
LIMIT=${TRACE_HARM_TIMEOUT:-120}        # seconds per run

gpu_or_skip trace_harm/app_builds || exit 0
ulimit -c 0
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
if ! "$NVCC" -O2 -arch="sm_${cc:-90}" -o harm "$here/fixtures/trace/harm.cu" -lcuda -lpthread \
        >build.log 2>&1; then
    fail trace_harm/app_builds "$(tail -5 build.log)"
    exit 0
fi
pass trace_harm/app_builds

# check_file FILE MIN MAX: the run file parses (every row as many fields as
# the header), one process, and MIN..MAX rows; prints what is wrong.
check_file() {
    python3 - "$@" <<'PY'
import csv, sys
path, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
try:
    text = open(path).read().splitlines()
except OSError as e:
    sys.exit(f"no run file: {e}")
meta = [l for l in text if l.startswith('#')]
rows = list(csv.reader([l for l in text if not l.startswith('#')]))
if not rows or 'kernel' not in rows[0]:
    sys.exit("no header")
bad = [i for i, r in enumerate(rows) if len(r) != len(rows[0])]
if bad:
    sys.exit(f"rows {bad[:5]} have another field count than the header")
n = len(rows) - 1
if not lo <= n <= hi:
    sys.exit(f"{n} rows, wanted {lo}..{hi}")
if not any(l.startswith('# processes: 1: ') for l in meta):
    sys.exit("not one process: " + ' '.join(l for l in meta if 'processes' in l))
PY
}

# case NAME WANTED_EXIT STDOUT_REGEX MIN_ROWS MAX_ROWS
case_() {
    local name=$1 code=$2 re=$3 lo=$4 hi=$5
    timeout -k 5 "$LIMIT" ./harm "$name" >"$name.plain" 2>"$name.plain.err"
    local rc=$?
    if [ "$rc" = "$code" ] && grep -Eq -- "$re" "$name.plain"; then
        pass "trace_harm/$name/plain"
    else
        fail "trace_harm/$name/plain" "exit $rc (wanted $code): $(head -c 300 "$name.plain" "$name.plain.err")"
    fi
    local mode
    for mode in default none; do
        local t="trace_harm/$name/$mode" out="$name.$mode"
        timeout -k 5 "$LIMIT" "$GP" trace -q --per-launch --metrics "$mode" -o "$out.csv" -- ./harm "$name" \
            >"$out" 2>"$out.err"
        local trc=$?
        [ "$trc" = "$rc" ] && pass "$t/exit_status" ||
            fail "$t/exit_status" "exit $trc, plain $rc: $(tail -c 300 "$out.err")"
        cmp -s "$name.plain" "$out" && pass "$t/stdout" ||
            fail "$t/stdout" "$(diff "$name.plain" "$out" | head -5 | tr '\n' ' ')"
        local why
        why=$(check_file "$out.csv" "$lo" "$hi" 2>&1) && pass "$t/run_file" ||
            fail "$t/run_file" "$why"
    done
}

case_ null-config 0 '^null-config: checksum 256$' 1 1
case_ fork-exit 7 '^fork-exit: child exit 7, checksum 512$' 2 2
case_ fork-exec 0 '^fork-exec: true exit 0, count-fds exit 0, checksum 512$' 2 2
grep -qx 'count-fds: 0 files of the trace inherited' fork-exec.default &&
    pass trace_harm/fork-exec/no_file_inherited ||
    fail trace_harm/fork-exec/no_file_inherited "$(grep count-fds fork-exec.default)"
case_ pool 0 '^pool: checksum 2304$' 9 9
grep -c '^pool: worker [0-3] sum [0-9]* exit 0$' pool.plain | grep -qx 4 &&
    pass trace_harm/pool/workers || fail trace_harm/pool/workers "$(cat pool.plain)"
case_ threads-exit 0 '^threads-exit: 4 threads launching$' 12 1000000
