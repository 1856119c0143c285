#!/usr/bin/env bash
# lists.sh - commands and architectures are each listed once, and every
# place that names them names all of them, and no other.
#  - Commands: the table is src/cli/commands.c.  Each is in `gemmprof
#    --help`'s Commands, answers `gemmprof COMMAND --help`, is named in the
#    unknown-command error, has an example in the README's "One example per
#    command" and a row in docs/README.md's Commands table.
#  - Architectures: the list is src/arch/archs.def.  Each is in the nvcc
#    flags of a build with no GPU to ask (-gencode ... code=sm_CC, and
#    sm_CCa for the *_smCCa.cu files) and of gemmprof-build's default
#    (plugins), in this binary's ptxas facts when it
#    was built for every one, in docs/gpus-and-builds.md's and the README's
#    GPU tables, and in tests/registry/test_needs.c's per_arch (which fails
#    by itself too).
# Each check runs once more on a copy with one entry removed, and must
# fail there (lists/check_*).  CPU only.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# a make of its own, not a sub-make of `make test`'s
unset MAKEFLAGS MFLAGS MAKELEVEL

# ---- the two lists ----
mapfile -t commands < <(sed -n 's/^ *{ { "\([a-z0-9_-]*\)",.*/\1/p' "$root/src/cli/commands.c")
mapfile -t ccs < <(arch_ccs)
mapfile -t specific < <(arch_ccs a)
[ "${#commands[@]}" -ge 2 ] && pass lists/commands_table_read ||
    fail lists/commands_table_read "no { { \"word\", lines in src/cli/commands.c"
[ "${#ccs[@]}" -ge 2 ] && pass lists/archs_def_read ||
    fail lists/archs_def_read "no GP_ARCH( lines in src/arch/archs.def"

# in LIST WORD: is WORD a line of LIST (a file)?
in_list() { grep -qxF -- "$2" "$1"; }
# both LABEL WANT GOT: every line of WANT in GOT (lists/LABEL/WORD/in_...
# per word is done by the callers); the lines of GOT that WANT lacks fail.
no_other() {
    local name=$1 want=$2 got=$3 extra
    extra=$(grep -vxF -f "$want" "$got" | tr '\n' ' ')
    [ -z "$extra" ] && pass "$name" || fail "$name" "not in the list: $extra"
}

# ---- commands ----
printf '%s\n' "${commands[@]}" >"$TMP/commands"
"$GP" --help >"$TMP/main" 2>&1
awk '/^Commands/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$TMP/main" >"$TMP/help_words"
# the README's "One example per command": the words after "gemmprof "
readme_commands() {
    awk '/^## One example per command/ { on = 1; next } on && /^## / { exit } on' "$1" |
        grep -o 'gemmprof [a-z][a-z0-9_-]*' | cut -d' ' -f2 | sort -u
}
# docs/README.md's Commands table: | `word` | page |
docs_commands() {
    awk '/^## Commands/ { on = 1; next } on && /^## / { exit } on' "$1" |
        sed -n 's/^| `\([a-z0-9_-]*\)` |.*/\1/p'
}
check_commands() {      # README docs/README.md
    readme_commands "$1" >"$TMP/readme_words"
    docs_commands "$2" >"$TMP/docs_words"
    for w in "${commands[@]}"; do
        in_list "$TMP/help_words" "$w" && pass "lists/command/$w/in_help" ||
            fail "lists/command/$w/in_help" "gemmprof --help's Commands lack it"
        in_list "$TMP/readme_words" "$w" && pass "lists/command/$w/readme_example" ||
            fail "lists/command/$w/readme_example" "README.md's \"One example per command\" never says gemmprof $w"
        in_list "$TMP/docs_words" "$w" && pass "lists/command/$w/docs_row" ||
            fail "lists/command/$w/docs_row" "docs/README.md's Commands table has no row \`$w\`"
    done
    no_other lists/commands/help_lists_no_other "$TMP/commands" "$TMP/help_words"
    no_other lists/commands/docs_list_no_other "$TMP/commands" "$TMP/docs_words"
}
check_commands "$root/README.md" "$root/docs/README.md"

# each answers --help (Open MPI leaks in dist's dlclose'd components: no
# leak checking for it in an ASan build, as help.sh)
asan=${ASAN_OPTIONS-}
for w in "${commands[@]}"; do
    export ASAN_OPTIONS=$asan
    [ "$w" = dist ] && export ASAN_OPTIONS=${asan:+$asan:}detect_leaks=0
    "$GP" "$w" --help >"$TMP/h" 2>&1; rc=$?
    [ $rc = 0 ] && head -1 "$TMP/h" | grep -q "^Usage: .*gemmprof.* $w\b\|^Usage: gemmprof \[--dry-run\] \[$w\]" &&
        pass "lists/command/$w/answers_help" ||
        fail "lists/command/$w/answers_help" "exit $rc: $(head -c 200 "$TMP/h")"
done
export ASAN_OPTIONS=$asan
list=$(paste -sd, "$TMP/commands" | sed 's/,/, /g')
expect lists/commands/unknown_command_names_all 2 "unknown command 'frob' \\(commands: $list;" -- "$GP" frob

# ---- architectures ----
# the nvcc lines of a build with no GPU to ask (ARCH unset)
make -s -n -B -C "$root" all NVIDIA_SMI="$TMP/no-nvidia-smi" B="$TMP/b" BIN="$TMP/bin" \
    GIT_COMMIT=lists 2>&1 | grep ' -gencode ' >"$TMP/nvcc"
# the binary: what it says it was built for, and what ptxas compiled into it
built=$("$GP" --version 2>&1 | sed -n 's/.*built for \([^)]*\)).*/\1/p')
tr ' ' '\n' <<<"$built" | grep '^sm_' | sort -u >"$TMP/built_sm"
"$GP" --build-facts 2>/dev/null | awk -F, 'NR > 2 { print $NF }' | sort -u >"$TMP/facts_sm"
cmp -s "$TMP/built_sm" "$TMP/facts_sm" && [ -s "$TMP/facts_sm" ] && pass lists/arch/binary_has_what_it_says ||
    fail lists/arch/binary_has_what_it_says "--version: '$built'; ptxas facts: $(tr '\n' ' ' <"$TMP/facts_sm")"
# docs/gpus-and-builds.md: | `sm_CC` | ...; README: | 8.0, 8.6, 8.9 Ampere | ...
gpus_doc_ccs() { sed -n 's/^| `sm_\([0-9]*\)` |.*/\1/p' "$1"; }
readme_ccs() {
    awk '/^## Supported GPUs/ { on = 1; next } on && /^## / { exit } on && /^\| [0-9]/' "$1" |
        cut -d'|' -f2 | grep -o '[0-9][0-9]*\.[0-9]' | tr -d .
}
needs_ccs() {
    awk '/per_arch\[\] = \{/ { on = 1; next } on && /^};/ { exit } on' "$1" |
        sed -n 's/^ *{\([0-9]*\),.*/\1/p'
}
check_archs() {         # docs/gpus-and-builds.md README.md test_needs.c
    printf '%s\n' "${ccs[@]}" >"$TMP/ccs"
    gpus_doc_ccs "$1" >"$TMP/doc_ccs"
    readme_ccs "$2" >"$TMP/readme_ccs"
    needs_ccs "$3" >"$TMP/needs_ccs"
    for c in "${ccs[@]}"; do
        in_list "$TMP/doc_ccs" "$c" && pass "lists/arch/sm_$c/gpus_doc" ||
            fail "lists/arch/sm_$c/gpus_doc" "docs/gpus-and-builds.md's table has no row \`sm_$c\`"
        in_list "$TMP/readme_ccs" "$c" && pass "lists/arch/sm_$c/readme" ||
            fail "lists/arch/sm_$c/readme" "README.md's Supported GPUs table lacks $((c / 10)).$((c % 10))"
        in_list "$TMP/needs_ccs" "$c" && pass "lists/arch/sm_$c/needs_test" ||
            fail "lists/arch/sm_$c/needs_test" "tests/registry/test_needs.c's per_arch has no line {$c, ...}"
    done
    no_other lists/archs/gpus_doc_lists_no_other "$TMP/ccs" "$TMP/doc_ccs"
    no_other lists/archs/readme_lists_no_other "$TMP/ccs" "$TMP/readme_ccs"
    no_other lists/archs/needs_test_lists_no_other "$TMP/ccs" "$TMP/needs_ccs"
}
check_archs "$root/docs/gpus-and-builds.md" "$root/README.md" "$root/tests/registry/test_needs.c"

all=$(arch_all_codes)
for c in "${ccs[@]}"; do
    grep -q -- "-gencode arch=compute_$c,code=sm_$c " "$TMP/nvcc" && pass "lists/arch/sm_$c/nvcc_flags" ||
        fail "lists/arch/sm_$c/nvcc_flags" "no -gencode arch=compute_$c,code=sm_$c in make's nvcc lines"
    if [ "$built" = "$all" ]; then
        in_list "$TMP/facts_sm" "sm_$c" && pass "lists/arch/sm_$c/in_binary" ||
            fail "lists/arch/sm_$c/in_binary" "$GP --build-facts has no sm_$c kernel"
    else
        skip "lists/arch/sm_$c/in_binary" "this binary is built for $built only (ARCH, or the GPUs here), not every architecture"
    fi
done
# gemmprof-build (plugins) with no ARCH and no GPU to ask: every one too
mkdir -p "$TMP/fake"
printf '#!/bin/sh\nexit 9\n' >"$TMP/fake/nvidia-smi"
printf '#!/bin/sh\necho "$@"\n' >"$TMP/fake/nvcc"
chmod +x "$TMP/fake/nvidia-smi" "$TMP/fake/nvcc"
: >"$TMP/plugin.cu"
(unset ARCH; PATH="$TMP/fake:$PATH" NVCC="$TMP/fake/nvcc" \
    "$root/scripts/gemmprof-build" -o "$TMP/plugin.so" "$TMP/plugin.cu") >"$TMP/plugin_nvcc" 2>/dev/null
for c in "${ccs[@]}"; do
    grep -q -- "-gencode arch=compute_$c,code=sm_$c " "$TMP/plugin_nvcc" && pass "lists/arch/sm_$c/gemmprof_build" ||
        fail "lists/arch/sm_$c/gemmprof_build" "scripts/gemmprof-build's default has no sm_$c: $(head -c 300 "$TMP/plugin_nvcc")"
done
for c in "${specific[@]}"; do
    grep -q -- "-gencode arch=compute_${c}a,code=sm_${c}a " "$TMP/nvcc" && pass "lists/arch/sm_${c}a/nvcc_flags" ||
        fail "lists/arch/sm_${c}a/nvcc_flags" "no -gencode arch=compute_${c}a,code=sm_${c}a in make's nvcc lines"
done

# ---- each check can fail: one entry removed from a copy ----
# must_fail NAME WANT CMD...: CMD's output has a FAIL line matching WANT
must_fail() {
    local name=$1 want=$2 out; shift 2
    out=$("$@")
    grep -Eq "^FAIL $want" <<<"$out" && pass "$name" ||
        fail "$name" "wanted FAIL $want, got: $(grep '^FAIL' <<<"$out" | head -3)"
}
last_cc=${ccs[-1]} last_cmd=${commands[-1]}
grep -v "^| \`sm_$last_cc\` |" "$root/docs/gpus-and-builds.md" >"$TMP/gpus.md"
sed "/^| \`$last_cmd\` |/d" "$root/docs/README.md" >"$TMP/docs_README.md"
sed "/^    {$last_cc, /d" "$root/tests/registry/test_needs.c" >"$TMP/test_needs.c"
must_fail lists/check_fails_without_a_gpus_doc_row "lists/arch/sm_$last_cc/gpus_doc" \
    check_archs "$TMP/gpus.md" "$root/README.md" "$root/tests/registry/test_needs.c"
must_fail lists/check_fails_without_a_needs_line "lists/arch/sm_$last_cc/needs_test" \
    check_archs "$root/docs/gpus-and-builds.md" "$root/README.md" "$TMP/test_needs.c"
must_fail lists/check_fails_without_a_docs_row "lists/command/$last_cmd/docs_row" \
    check_commands "$root/README.md" "$TMP/docs_README.md"
# an architecture the docs and test_needs.c do not know: a line added to a
# copy of archs.def
{ cat "$root/src/arch/archs.def"; echo 'GP_ARCH(130, 0, "Next", 128, 2, NAN, NAN)'; } >"$TMP/archs.def"
with_new_arch() {
    mapfile -t ccs < <(ARCHS_DEF="$TMP/archs.def" arch_ccs)
    check_archs "$root/docs/gpus-and-builds.md" "$root/README.md" "$root/tests/registry/test_needs.c"
}
must_fail lists/check_fails_on_a_new_arch "lists/arch/sm_130/gpus_doc" with_new_arch
