#!/usr/bin/env bash
# ncu-compare.sh - gemmprof's in-process counters (CUPTI Range Profiler)
# against Nsight Compute's, rung by rung, metric by metric.  Runs on the
# GPU machine.
#   scripts/ncu-compare.sh [SIZE] [KERNELS]     (default 1024, all rungs)
# Env: GEMMPROF_BIN (bin/gemmprof), NCU (ncu), OUT (work files go to
#      $OUT/ncu-compare, default a temp dir), TOL (0.02 = +-2%),
#      NCU_CACHE (ncu --cache-control: all (default) or none).
#
# Which launches are compared:
#  - gemmprof: its counter launch, a separate replayed launch that follows
#    the verification launch and the timed one (--reps 1 --warmup 0).
#  - ncu: the rung's last launch in a `--metrics none` run of the same
#    command, i.e. its timed launch (the first launch of a rung is the
#    verification launch; the reference cuBLAS runs before the rung and the
#    input fills before that, so the process's last kernel is the rung's).
#    For a rung that launches several kernels per GEMM only the last
#    kernel is compared (gemmprof sums over them).
# Both run at unlocked clocks (CUPTI 13.0 does not lock them: ncu
# --clock-control none).  ncu also flushes caches before each pass unless
# NCU_CACHE=none, CUPTI does not: DRAM and L2 bytes depend on what the
# previous launch left in L2, so they may differ; instruction counts
# (sm__sass_*) must not: they are compared exactly, and any difference
# makes the exit status 1.
set -uo pipefail
cd "$(dirname "$0")/.."
SIZE=${1:-1024}
KERNELS=${2:-${KERNELS:-all}}
BIN=${GEMMPROF_BIN:-bin/gemmprof}
NCU=${NCU:-ncu}
TOL=${TOL:-0.02}
NCU_CACHE=${NCU_CACHE:-all}

die() { echo "ncu-compare: $*" >&2; exit 2; }
command -v "$NCU" >/dev/null || die "$NCU not found (set NCU=/path/to/ncu)"
[ -x "$BIN" ] || die "$BIN not built (make, or set GEMMPROF_BIN)"
work=${OUT:-$(mktemp -d)}/ncu-compare
mkdir -p "$work" || die "cannot create $work"
now() { date +%s.%N; }

if [ "$KERNELS" = all ]; then
    rungs=$("$BIN" --list | awk 'NR > 1 { print $1 }')
else
    rungs=$(tr , ' ' <<<"$KERNELS")
fi
rungs=$(echo $rungs)
[ -n "$rungs" ] || die "no kernels to compare"

# 1. gemmprof with its default counters, every rung in one process.
t0=$(now)
"$BIN" --kernel "$(tr ' \n' ,, <<<"$rungs" | sed 's/,*$//')" --size "$SIZE" \
    --reps 1 --warmup 0 --quiet --out "$work/gemmprof.csv" 2>"$work/gemmprof.log"
gp_rc=$?
t1=$(now)
[ -s "$work/gemmprof.csv" ] || die "gemmprof wrote no rows (exit $gp_rc, see $work/gemmprof.log)"
# The metric columns are the ones spelled like ncu metrics (with "__").
metrics=$(grep -v '^#' "$work/gemmprof.csv" | head -1 | tr , '\n' | tr -d '"' |
          grep __ | paste -sd, -)
[ -n "$metrics" ] || die "no metric columns in $work/gemmprof.csv"

# 2. ncu, one process per rung, same command without gemmprof's counters.
ncu_s=0
for k in $rungs; do
    s=$(now)
    LC_ALL=C "$NCU" --clock-control none --cache-control "$NCU_CACHE" \
        --print-units base --csv --metrics "$metrics" --log-file "$work/ncu-$k.log" \
        "$BIN" --kernel "$k" --size "$SIZE" --reps 1 --warmup 0 --metrics none \
        --quiet --out "$work/ncu-run-$k.csv" >"$work/ncu-$k.app.log" 2>&1 ||
        echo "ncu-compare: ncu on $k exited $? (see $work/ncu-$k.log)" >&2
    ncu_s=$(awk -v a="$ncu_s" -v b="$s" -v c="$(now)" 'BEGIN { print a + c - b }')
    grep '^"' "$work/ncu-$k.log" >"$work/ncu-$k.csv"
done

# 3. Join: per rung and metric, gemmprof value, ncu value, ratio.
awk -v tol="$TOL" -v rungs="$rungs" -v dir="$work" '
# Split one CSV line (quoted fields may hold commas) into f[1..n].
function csv(line, f,    n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (c == "\"") { if (q && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else q = !q }
        else if (c == "," && !q) { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
function num(s) { gsub(/,/, "", s); return s }
BEGIN {
    # gemmprof: header after the "#" metadata, then one row per kernel
    file = dir "/gemmprof.csv"; hdr = 0
    while ((getline line < file) > 0) {
        sub(/\r$/, "", line)
        if (line ~ /^#/ || line == "") continue
        n = csv(line, f)
        if (!hdr) { for (i = 1; i <= n; i++) { col[f[i]] = i; if (f[i] ~ /__/) met[++nm] = f[i] } hdr = 1; continue }
        for (j = 1; j <= nm; j++) gp[f[col["kernel"]], met[j]] = f[col[met[j]]]
        seen[f[col["kernel"]]] = 1
    }
    printf "%-14s %-58s %16s %16s %8s\n", "rung", "metric", "gemmprof", "ncu", "ratio"
    nr = split(rungs, r, /[ \n]+/)
    for (i = 1; i <= nr; i++) {
        k = r[i]; if (k == "") continue
        # ncu: one row per launch and metric; keep the last launch (max ID)
        file = dir "/ncu-" k ".csv"; h = 0; last = -1; delete nv
        while ((getline line < file) > 0) {
            n = csv(line, f)
            if (!h) { for (j = 1; j <= n; j++) nc[f[j]] = j; h = 1; continue }
            id = f[nc["ID"]] + 0
            if (id > last) { last = id; delete nv; kname = f[nc["Kernel Name"]] }
            if (id == last) nv[f[nc["Metric Name"]]] = num(f[nc["Metric Value"]])
        }
        close(file)
        if (!(k in seen)) { printf "%-14s (no gemmprof row)\n", k; continue }
        if (last < 0) { printf "%-14s (no ncu launch, see ncu-%s.log)\n", k, k; continue }
        printf "# %s: ncu launch %d, %s\n", k, last, substr(kname, 1, 90)
        for (j = 1; j <= nm; j++) {
            m = met[j]; g = gp[k, m]; v = (m in nv) ? nv[m] : "NA"
            if (g == "NA" || g == "" || v == "NA" || v == "" || v == "n/a") { ratio = "NA"; bad = 1 }
            else if (g + 0 == 0 && v + 0 == 0) { ratio = "1.000"; bad = 0 }
            else if (v + 0 == 0) { ratio = "inf"; bad = 1 }
            else {
                x = g / v; ratio = sprintf("%.3f", x)
                # instruction counts are exact: any difference is a bug
                bad = (m ~ /sass_/) ? (g + 0 != v + 0) : (x < 1 - tol || x > 1 + tol)
            }
            total++; out += bad
            if (bad && m ~ /sass_/) exact_bad++
            printf "%-14s %-58s %16s %16s %8s%s\n", k, m, g, v, ratio, bad ? "  OUT" : ""
        }
    }
    printf "%d of %d values outside +-%g%% (%d of them instruction counts, compared exactly)\n",
           out, total, 100 * tol, exact_bad
    exit exact_bad > 0
}' </dev/null
status=$?
awk -v g="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" -v n="$ncu_s" \
    'BEGIN { printf "wall time: gemmprof with counters %.1f s (all rungs, one process), ncu %.1f s (one process per rung)\n", g, n }'
echo "work files: $work"
exit $status
