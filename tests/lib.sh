# lib.sh - helpers for shell tests: each test prints PASS/FAIL/SKIP NAME.
GP=${GEMMPROF_BIN:-bin/gemmprof}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1${2:+: $2}"; }
skip() { echo "SKIP $1${2:+: $2}"; }

have_gpu() { nvidia-smi -L 2>/dev/null | grep -q '^GPU'; }

# gpu_or_skip NAME: 0 if the GPU test should run; prints SKIP (or FAIL when
# GEMMPROF_REQUIRE_GPU=1) and returns 1 otherwise.
gpu_or_skip() {
    have_gpu && return 0
    if [ "${GEMMPROF_REQUIRE_GPU:-}" = 1 ]; then fail "$1" "no GPU but GEMMPROF_REQUIRE_GPU=1"
    else skip "$1" "no GPU"; fi
    return 1
}

# expect NAME EXIT_CODE REGEX -- CMD...: exit code and one stderr line matching REGEX
expect() {
    local name=$1 code=$2 re=$3; shift 4
    "$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?
    if [ "$rc" != "$code" ]; then fail "$name" "exit $rc, wanted $code: $(head -c 300 "$TMP/err")"
    elif [ -n "$re" ] && ! grep -Eq -- "$re" "$TMP/err" "$TMP/out"; then fail "$name" "no /$re/ in: $(head -c 300 "$TMP/err")"
    else pass "$name"; fi
}

# The architectures, from their one list, src/arch/archs.def (its GP_ARCH
# lines; ARCHS_DEF names another copy): arch_ccs prints every compute
# capability, oldest first; arch_ccs a, those with an 'a' target too.
arch_ccs() {
    local def=${ARCHS_DEF:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/src/arch/archs.def}
    if [ "${1:-}" = a ]; then sed -n 's/^GP_ARCH( *\([0-9]*\) *, *1 *,.*/\1/p' "$def"
    else sed -n 's/^GP_ARCH( *\([0-9]*\) *,.*/\1/p' "$def"; fi
}
# What make builds with no GPU to ask: sm_CC of each, sm_CCa where it has
# one, PTX of the newest ("sm_75 ... sm_90 sm_90a ... compute_120").
arch_all_codes() {
    local c out=
    for c in $(arch_ccs); do
        out+="sm_$c "
        grep -qx "$c" <(arch_ccs a) && out+="sm_${c}a "
    done
    echo "${out}compute_$(arch_ccs | tail -1)"
}
# words_overlap FILE: each pair of words of the PDF whose boxes overlap by
# more than half a point, as "a / b".
words_overlap() {
    pdftotext -bbox "$1" - 2>/dev/null | awk -F'"' '/<word / {
        n++; x0[n] = $2; y0[n] = $4; x1[n] = $6; y1[n] = $8
        w = $9; sub(/^>/, "", w); sub(/<\/word>.*/, "", w); t[n] = w }
      END { for (i = 1; i <= n; i++) for (j = 1; j < i; j++)
              if (x0[i] < x1[j] - 0.5 && x0[j] < x1[i] - 0.5 && y0[i] < y1[j] - 0.5 && y0[j] < y1[i] - 0.5)
                  print t[j] " / " t[i] }'
}
