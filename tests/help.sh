#!/usr/bin/env bash
# help.sh - one help format for every command of the table (src/cli/
# commands.c, listed by `gemmprof --help`): a GNU "Usage:" first line, an
# "Exit status:" section and examples; `gemmprof help X` is exactly
# `gemmprof X --help`; -V/--version answers everywhere; a command word after
# options gets the hint; no driver is said as "no NVIDIA driver".
. "$(dirname "$0")/lib.sh"

# The words of the Commands section of gemmprof --help (tests/lists.sh:
# they are the table's, all of them).
"$GP" --help >"$TMP/main" 2>&1
awk '/^Commands/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$TMP/main" >"$TMP/words"
mapfile -t words <"$TMP/words"
[ "${#words[@]}" -ge 2 ] && pass help/lists_commands || fail help/lists_commands "only: ${words[*]}"

# Open MPI leaks in its dlclose'd components (dist starts MPI before it
# parses): as in dist.sh, no leak checking for dist in an ASan build
# (make SANITIZE=1; the variable is ignored otherwise).
asan=${ASAN_OPTIONS-}
for w in "${words[@]}"; do
    export ASAN_OPTIONS=$asan
    [ "$w" = dist ] && export ASAN_OPTIONS=${asan:+$asan:}detect_leaks=0
    "$GP" "$w" --help >"$TMP/h" 2>&1; rc=$?
    [ $rc = 0 ] || fail "help/$w/exit_0" "gemmprof $w --help exited $rc"
    if head -1 "$TMP/h" | grep -q '^Usage: ' && grep -q '^Exit status:$' "$TMP/h" &&
       grep -q '^Examples:$' "$TMP/h" && grep -Eq '^  -h, --help ' "$TMP/h" &&
       grep -Eq '^  -V, --version ' "$TMP/h"; then pass "help/$w/shape"
    else fail "help/$w/shape" "want Usage: first, -h, -V, Exit status:, Examples:; got: $(head -c 200 "$TMP/h")"; fi
    long=$(awk 'length($0) > 79' "$TMP/h" | head -1)
    [ -z "$long" ] && pass "help/$w/fits_79_columns" || fail "help/$w/fits_79_columns" "$long"
    "$GP" help "$w" >"$TMP/via_help" 2>&1
    cmp -s "$TMP/h" "$TMP/via_help" && pass "help/$w/help_command_same" ||
        fail "help/$w/help_command_same" "gemmprof help $w differs from gemmprof $w --help"
    for v in --version -V; do
        expect "help/$w/version$v" 0 '^gemmprof [0-9]+\.[0-9]+\.[0-9]+ \(commit ' -- "$GP" "$w" "$v"
    done
    # a command word given after an option: the hint names the command
    expect "help/$w/hint_after_options" 2 "a command comes first: gemmprof $w" -- "$GP" -q "$w"
done
export ASAN_OPTIONS=$asan
cmp -s "$TMP/main" <("$GP" help 2>&1) && pass help/help_alone_is_main ||
    fail help/help_alone_is_main "gemmprof help differs from gemmprof --help"
expect help/unknown_command_lists 2 "^gemmprof: help: unknown command 'frob' \(commands: run, probe," -- "$GP" help frob

# --dry-run: global, answers for every command; a bad option still exits 2
expect help/dry_run_run 0 '^dry run: gemmprof -k naive -s 64$' -- "$GP" --dry-run -k naive -s 64
expect help/dry_run_bad_option 2 "^gemmprof: .*'--frob'" -- "$GP" --dry-run plot --frob x.csv
expect help/dry_run_bad_value 2 '^gemmprof: --reps' -- "$GP" --dry-run -k naive -s 64 --reps 0
expect help/dry_run_runs_nothing 0 '' -- "$GP" --dry-run trace -- sh -c "touch $TMP/ran"
[ ! -e "$TMP/ran" ] && pass help/dry_run_trace_starts_nothing || fail help/dry_run_trace_starts_nothing

# Without the NVIDIA driver (libcuda.so.1), the run command says so, in the
# words --list-metrics uses.
if have_gpu || ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 ' ||
   ls /usr/lib*/libcuda.so.1 /usr/lib*/*/libcuda.so.1 >/dev/null 2>&1; then
    skip help/no_driver_named "this machine has the NVIDIA driver"
else
    expect help/no_driver_named 2 '^gemmprof: no NVIDIA driver \(libcuda\.so\.1 not found\)' -- "$GP" -k naive -s 64
fi
