#!/usr/bin/env bash
# docs.sh - every gemmprof command line shown in README.md and docs/*.md
# (```sh blocks: lines that start with gemmprof, bin/gemmprof or mpirun ...
# gemmprof) goes through the option parser, as `gemmprof --dry-run ...`:
# nothing runs, no GPU is needed, and a line the parser refuses fails,
# named by its file and line.  So the docs cannot drift from the options.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
GP=$(cd "$(dirname "$GP")" && pwd)/$(basename "$GP")

# FILE:LINE<TAB>command, continuation lines (trailing \) joined.
extract() {
    awk '
    FNR == 1 { insh = 0 }
    /^[[:space:]]*```/ { insh = !insh && $0 ~ /```(sh|bash)[[:space:]]*$/; held = ""; next }
    !insh { next }
    {
        line = $0
        if (held != "") { line = held " " line } else { at = FILENAME ":" FNR }
        if (line ~ /\\$/) { sub(/\\$/, "", line); held = line; next }
        held = ""
        sub(/^[[:space:]]+/, "", line)
        if (line ~ /^(\.\/)?(bin\/)?gemmprof( |$)/ || line ~ /^mpirun .*gemmprof /)
            print at "\t" line
    }' "$@"
}

# Each gemmprof in a line (after ; | && too) is the dry run; a refusal is
# written to $fails.  mpirun runs it for real when there is one (dist's grid
# must match the process count), with gemmprof swapped for the dry run.
check_line() {
    local fails=$1 line=$2
    gp_dry() {      # a line that shows --dry-run itself keeps its own
        [ "${1:-}" = --dry-run ] && shift
        "$GP" --dry-run "$@" >>"$TMP/out.log" 2>&1 || echo "exit $?" >>"$fails"
    }
    gemmprof() { gp_dry "$@"; }
    bin/gemmprof() { gp_dry "$@"; }
    ./bin/gemmprof() { gp_dry "$@"; }
    mpirun() {
        local args=() a
        for a in "$@"; do
            case $a in gemmprof|bin/gemmprof|./bin/gemmprof) args+=("$GP" --dry-run) ;;
                        *) args+=("$a") ;; esac
        done
        # Open MPI leaks where LeakSanitizer cannot name a frame (dist.sh)
        ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
            command mpirun "${MPIFLAGS[@]}" "${args[@]}" >>"$TMP/out.log" 2>&1 || echo "exit $?" >>"$fails"
    }
    eval "$line"
}

files=("$root/README.md" "$root"/docs/*.md)
extract "${files[@]}" >"$TMP/lines"
[ -s "$TMP/lines" ] || { fail docs/commands "no command lines found in README.md and docs/"; exit 0; }

# Relative paths in the docs are the repository's; output they redirect
# goes to a scratch folder that sees the repository's top level.
mkdir -p "$TMP/cwd" && for e in "$root"/*; do ln -s "$e" "$TMP/cwd/"; done
MPIFLAGS=(-q --oversubscribe)
[ "$(id -u)" = 0 ] && MPIFLAGS+=(--allow-run-as-root)
have_mpi=0
command -v mpirun >/dev/null && ! "$GP" dist --help | grep -q 'built without MPI' && have_mpi=1

# The check itself can fail: a line with a bad option is refused.
: >"$TMP/fails"; : >"$TMP/out.log"
(cd "$TMP/cwd" && check_line "$TMP/fails" "gemmprof plot --charts bogus x.csv") </dev/null
[ -s "$TMP/fails" ] && grep -q "unknown chart 'bogus'" "$TMP/out.log" &&
    pass docs/checker_refuses_bad_line || fail docs/checker_refuses_bad_line "$(cat "$TMP/out.log")"

n=0
while IFS=$'\t' read -r at line; do
    name="docs/command:${at#"$root"/}"
    echo "checked ${at#"$root"/}: $line"
    if [[ $line == mpirun* ]] && [ $have_mpi = 0 ]; then
        skip "$name" "no mpirun or a build without MPI"; continue
    fi
    : >"$TMP/fails"; : >"$TMP/out.log"
    (cd "$TMP/cwd" && check_line "$TMP/fails" "$line") </dev/null
    if [ -s "$TMP/fails" ]; then
        fail "$name" "the option parser refused: $line: $(grep -m1 gemmprof: "$TMP/out.log")"
    elif ! grep -q '^dry run: ' "$TMP/out.log"; then
        fail "$name" "no dry run answered: $line"
    else
        pass "$name"
    fi
    n=$((n + 1))
done <"$TMP/lines"
echo "docs.sh: $n command lines checked"
