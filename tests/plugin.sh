#!/usr/bin/env bash
# plugin.sh - `--plugin FILE` through the command line, no GPU needed: every
# way a plugin can be refused gives one line naming the file and exit 2; a
# valid plugin's kernels appear in --list and can be selected by name.
# The plugins are built here from tests/fixtures/plugins/fixture.c.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
case $GP in */*) GP=$(cd "$(dirname "$GP")" && pwd)/$(basename "$GP") ;; esac  # one test cds
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}

fixture() {     # fixture NAME [CFLAGS...]: $TMP/NAME.so
    local name=$1; shift
    ${CC:-cc} -shared -fPIC -std=c11 -Wall -Wextra -I"$root/src" -I"$cuda/include" \
        "$@" "$root/tests/fixtures/plugins/fixture.c" -o "$TMP/$name.so"
}

# expect_refused NAME FILE REGEX: exit 2, exactly one line on stderr, naming FILE
expect_refused() {
    local name=$1 file=$2 re=$3
    expect "$name" 2 "^gemmprof: $TMP/$(basename "$file"): $re" -- "$GP" --plugin "$file" --list
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$name/one_line" "$(cat "$TMP/err")"
}

if ! fixture good || ! fixture good2 || ! fixture abi999 -DABI=999 || ! fixture dup -DDUP ||
   ! fixture noentry -DNO_ENTRY || ! fixture ownrt -DFATBIN || ! fixture twice -DTWICE ||
   ! fixture badname -DBAD_NAME || ! fixture noabi -DNO_ABI_SYMBOL ||
   ! fixture ctor_abi -DCTOR -DABI=999 || ! fixture ctor_ownrt -DCTOR -DFATBIN ||
   ! fixture ctor_noabi -DCTOR -DNO_ABI_SYMBOL || ! fixture ctor_dup -DCTOR -DDUP; then
    fail plugin/fixtures_build "${CC:-cc} could not build tests/fixtures/plugins/fixture.c"
    exit 1
fi
printf 'not a shared object, whatever its name says\n' >"$TMP/notelf.so"

expect_refused plugin/missing_file "$TMP/nope.so" 'cannot read plugin: No such file or directory$'
expect_refused plugin/not_a_shared_object "$TMP/notelf.so" 'cannot load as a shared object: .+'
expect_refused plugin/no_entry_symbol "$TMP/noentry.so" 'no gemmprof_plugin symbol: not a gemmprof plugin'
expect_refused plugin/wrong_abi "$TMP/abi999.so" \
    "plugin ABI 999, gemmprof speaks ABI 1: rebuild the plugin against this gemmprof's gemmprof.h$"
expect_refused plugin/duplicate_of_builtin "$TMP/dup.so" \
    "duplicate kernel name 'naive': already defined by a built-in kernel$"
expect_refused plugin/name_listed_twice "$TMP/twice.so" "kernel 'fixture_fp32' is listed twice$"
expect_refused plugin/bad_kernel_name "$TMP/badname.so" "kernel name 'Bad Name' is not valid"
expect_refused plugin/own_cuda_runtime "$TMP/ownrt.so" \
    'links its own copy of the CUDA runtime: rebuild it with nvcc -cudart shared'
expect_refused plugin/no_abi_symbol "$TMP/noabi.so" \
    "no gemmprof_abi_version symbol \(built with an older gemmprof.h\): rebuild the plugin against this gemmprof's gemmprof.h$"

# Refused from the file alone: a constructor that creates a marker never
# runs.  The control, refused only after dlopen (a duplicate kernel), shows
# the marker does appear when the plugin's code runs.
for p in ctor_abi ctor_ownrt ctor_noabi; do
    rm -f "$TMP/marker"
    GP_FIXTURE_MARKER=$TMP/marker "$GP" --plugin "$TMP/$p.so" --list >/dev/null 2>"$TMP/err"
    rc=$?
    if [ $rc != 2 ]; then fail plugin/${p}_refused_before_its_code_runs "exit $rc: $(cat "$TMP/err")"
    elif [ -e "$TMP/marker" ]; then fail plugin/${p}_refused_before_its_code_runs "constructor ran"
    else pass plugin/${p}_refused_before_its_code_runs; fi
done
rm -f "$TMP/marker"
GP_FIXTURE_MARKER=$TMP/marker "$GP" --plugin "$TMP/ctor_dup.so" --list >/dev/null 2>&1
[ $? = 2 ] && [ -e "$TMP/marker" ] && pass plugin/constructor_marker_control ||
    fail plugin/constructor_marker_control "the marker plugin never ran its constructor"
expect plugin/duplicate_of_other_plugin 2 \
    "^gemmprof: $TMP/good2.so: duplicate kernel name 'fixture_fp32': already defined by good.so$" -- \
    "$GP" --plugin "$TMP/good.so" --plugin "$TMP/good2.so" --list
expect plugin/refused_before_gpu 2 "abi999.so: plugin ABI 999" -- \
    "$GP" --plugin "$TMP/abi999.so" --kernel naive --size 64 --out "$TMP/x.csv"
[ -e "$TMP/x.csv" ] && fail plugin/refused_writes_nothing || pass plugin/refused_writes_nothing

# A valid plugin: its kernels in --list (name first, needing nothing
# gemmprof knows of, origin in the idea), selectable whatever the option
# order, the same file twice harmless.
expect plugin/list_shows_plugin_kernels 0 '^fixture_fp64 +fp64 +- +(yes|no GPU) +\[good\.so\] ' -- \
    "$GP" --plugin "$TMP/good.so" --list
names=$(awk 'NR > 1 {print $1}' "$TMP/out" | tr '\n' ' ')
case $names in
    naive\ *fixture_fp32\ fixture_fp64\ ) pass plugin/list_keeps_name_column_and_order ;;
    *) fail plugin/list_keeps_name_column_and_order "names: $names" ;;
esac
head -1 "$TMP/out" | grep -q '^name ' && pass plugin/list_header_first || fail plugin/list_header_first
expect plugin/kernel_named_before_its_plugin 0 'fixture_fp32' -- \
    "$GP" --kernel fixture_fp32,naive --plugin "$TMP/good.so" --list
expect plugin/unknown_kernel_lists_plugin_kernels 2 "unknown kernel 'nope' \(valid: .*fixture_fp64" -- \
    "$GP" --kernel nope --plugin "$TMP/good.so" --list
expect plugin/same_file_twice_is_fine 0 'fixture_fp32' -- \
    "$GP" --plugin "$TMP/good.so" --plugin="$TMP/good.so" --list
expect plugin/bare_file_name_is_in_cwd 0 'fixture_fp32' -- \
    bash -c 'cd "$1" && "$2" --plugin good.so --list' _ "$TMP" "$GP"
expect plugin/help_mentions_plugin 0 '--plugin FILE' -- "$GP" --help

# gemmprof-build: usage, and the real build path (nvcc, no GPU needed):
# what it builds loads; nvcc's default (static runtime) is refused.
expect plugin/build_script_usage 2 '^usage: gemmprof-build' -- "$root/scripts/gemmprof-build"
if [ ! -x "$nvcc" ]; then
    skip plugin/make_plugin_builds_loadable "no nvcc at $nvcc"
    skip plugin/plain_nvcc_plugin_refused "no nvcc at $nvcc"
    exit 0
fi
if make -s -C "$root" plugin SRC=examples/plugin/mine.cu OUT="$TMP/libmine.so" \
        >"$TMP/build.log" 2>&1; then
    expect plugin/make_plugin_builds_loadable 0 '^mine_wrong +fp32 +- +(yes|no GPU) +\[libmine\.so\]' -- \
        "$GP" --plugin "$TMP/libmine.so" --list
else
    fail plugin/make_plugin_builds_loadable "$(tail -3 "$TMP/build.log")"
fi
if "$nvcc" -shared -Xcompiler -fPIC -arch sm_90 -I"$root/src" \
        "$root/examples/plugin/mine.cu" -o "$TMP/libstatic.so" >"$TMP/build.log" 2>&1; then
    expect_refused plugin/plain_nvcc_plugin_refused "$TMP/libstatic.so" \
        'links its own copy of the CUDA runtime'
else
    fail plugin/plain_nvcc_plugin_refused "$(tail -3 "$TMP/build.log")"
fi
