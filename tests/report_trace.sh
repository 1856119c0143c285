#!/usr/bin/env bash
# report_trace.sh - where a trace's GPU time goes, in the report and the
# plot (CPU only): on the hand-made training-loop fixture
# (tests/fixtures/trace/hotspots-fixture.csv) with the H100 ceilings, the
# report's first table ranks the top 10 kernels by GPU time with an
# "other" row, shares add to 100% and fall, bounds match the ridge; the
# trace_roofline chart data holds one point per top kernel that counted
# FLOPs, its share the table's and its marker's area proportional to it;
# report.pdf shows the table and the chart, no two words of the chart
# overlap; one number per fact (tests/report/consistency.py), shown to
# catch a changed share of GFLOP/s; files of other commands get no trace
# chart and no note about it.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
export GEMMPROF_PLOTS=${GEMMPROF_PLOTS:-$here/../plots}
FX=$here/fixtures/trace/hotspots-fixture.csv
CEIL=$here/../reports/data/h100/ceilings.csv
for tool in python3 gnuplot pdftotext pdfunite; do
    if ! command -v $tool >/dev/null; then
        skip report_trace/all "$tool not installed"
        exit 0
    fi
done

R=$TMP/trace
if ! "$GP" report "$FX" -c "$CEIL" --name trace --out "$TMP" >"$TMP/out" 2>"$TMP/err"; then
    fail report_trace/report "$(tail -1 "$TMP/err")"
    exit 0
fi
pass report_trace/report

# The table and the chart data, checked against each other and the fixture.
python3 - "$R" "$FX" >"$TMP/py" 2>&1 <<'PY'
import csv, math, re, sys
rep, fx = sys.argv[1], sys.argv[2]
md = open(rep + "/tables/hotspots.md").read().split("\n")
head = next(i for i, l in enumerate(md) if l.startswith("| # |"))
cols = [c.strip() for c in md[head].strip("|").split("|")]
rows = []
for l in md[head + 2:]:
    if not l.startswith("|"):
        break
    rows.append(dict(zip(cols, [c.strip() for c in re.split(r"(?<!\\)\|", l.strip())[1:-1]])))
bad = []
ranked = [r for r in rows if r["#"]]
other = [r for r in rows if not r["#"]]
if [r["#"] for r in ranked] != [str(i) for i in range(1, 11)]:
    bad.append("ranks " + str([r["#"] for r in ranked]))
if len(other) != 1 or other[0]["kernel"] != "other (5 kernels)":
    bad.append("other row " + str(other))
shares = [float(r["share %"]) for r in rows]
if abs(sum(shares) - 100) > 0.05 * len(shares):
    bad.append("shares add to %g" % sum(shares))
if any(a < b for a, b in zip(shares[:10], shares[1:10])):
    bad.append("shares do not fall: %s" % shares)
# From the fixture itself: the totals, the top kernel's share and launches.
with open(fx) as f:
    data = [r for r in csv.DictReader(l for l in f if not l.startswith("#"))]
tot = {}
for r in data:
    t = r["time_total_ms"]
    if t != "NA":
        # the unprofiled launches' sum (reps of them); the profiled ones
        # count at their mean (src/data/hotspots.c)
        n, reps = int(r["launches"]), int(r["reps"])
        key = (r["kernel"], r["precision"], r["config"])
        tot[key] = tot.get(key, 0) + float(t) * (n / reps if 0 < reps < n else 1)
allt = sum(tot.values())
best = max(tot, key=tot.get)
if abs(float(ranked[0]["share %"]) - 100 * tot[best] / allt) > 0.05 or \
        ranked[0]["config"] != best[2]:
    bad.append("top row %s, wanted %s at %.1f%%" % (ranked[0], best, 100 * tot[best] / allt))
if sum(int(r["launches"]) for r in rows) != sum(int(r["launches"]) for r in data):
    bad.append("launches do not add up")
# Bounds: memory below the ridge of the kernel's roofs, compute above.
for r in ranked:
    ai = r["FLOP/B DRAM"]
    want = "n/a" if ai in ("n/a", "0.0") else None
    if want and r["bound"] != want:
        bad.append("bound of %s: %s" % (r["kernel"], r["bound"]))
    if r["precision"] == "tf32" and float(ai) > 200 and r["bound"] != "compute":
        bad.append("tf32 GEMM %s bound %s" % (r["kernel"], r["bound"]))
    if r["precision"] == "fp32" and ai not in ("n/a", "0.0") and float(ai) < 1 and \
            r["bound"] != "memory":
        bad.append("fp32 %s at %s FLOP/B bound %s" % (r["kernel"], ai, r["bound"]))
# The chart: a point per ranked kernel with GFLOP/s > 0, the same share,
# marker area proportional to it.
pts, cols, series = {}, [], None
for l in open(rep + "/chart-data/trace_roofline.csv"):
    l = l.rstrip("\n")
    if l.startswith("# columns: "):
        cols = l[11:].split(",")
    elif l.startswith("# series: "):
        series = l[10:].split("|")
    elif l.startswith("#"):
        series = None
    elif l and series:
        pts[tuple(series)] = dict(zip(cols, l.split(",")))
if cols[-2:] != ["share_pct", "marker_pt"]:
    bad.append("chart columns " + str(cols))
drawn = [r for r in ranked if r["GFLOP/s"] not in ("n/a", "0")]
if len(pts) != len(drawn):
    bad.append("%d points for %d kernels with FLOPs" % (len(pts), len(drawn)))
for r in drawn:
    p = [v for k, v in pts.items() if k[2] == r["config"] and k[1] == r["precision"]]
    if len(p) != 1:
        bad.append("no point for " + r["kernel"])
        continue
    p = p[0]
    if abs(float(p["share_pct"]) - float(r["share %"])) > 0.051:
        bad.append("share of %s: %s in the chart, %s in the table" % (r["kernel"],
                   p["share_pct"], r["share %"]))
    if abs(float(p["TFLOP/s"]) * 1000 - float(r["GFLOP/s"])) > 0.6:
        bad.append("GFLOP/s of %s: %s" % (r["kernel"], p["TFLOP/s"]))
k = [float(p["marker_pt"]) ** 2 / float(p["share_pct"]) for p in pts.values()]
if max(k) / min(k) > 1.001:
    bad.append("marker area not proportional to share: %s" % k)
print("\n".join(bad) if bad else "ok %d rows, %d points" % (len(rows), len(pts)))
PY
if grep -q '^ok ' "$TMP/py"; then pass report_trace/table_and_chart_data; cat "$TMP/py"
else fail report_trace/table_and_chart_data "$(head -c 600 "$TMP/py")"; fi

# report.pdf: the table first, the chart on its page; its words apart.
pdftotext "$R/report.pdf" "$TMP/report.txt"
if grep -q 'Where the GPU time goes on NVIDIA H100' "$TMP/report.txt" &&
   grep -q 'other (5 kernels)' "$TMP/report.txt" &&
   grep -q 'Where the GPU time goes: the top 10 kernels' "$TMP/report.txt" &&
   [ -s "$R/figures/trace_roofline.pdf" ] && [ -s "$R/latex/trace_roofline.tex" ]
then pass report_trace/pdf_has_table_and_chart
else fail report_trace/pdf_has_table_and_chart "$(head -c 300 "$TMP/report.txt")"; fi
ov=$(words_overlap "$R/figures/trace_roofline.pdf")
if [ -z "$ov" ]; then pass report_trace/chart_words_apart
else fail report_trace/chart_words_apart "$(echo $ov | head -c 300)"; fi

# One number per fact, with the committed traces beside the fixture; the
# checker sees a changed GFLOP/s of the trace chart.
"$GP" report "$FX" "$here"/../reports/data/h100/trace/torch-*.csv -c "$CEIL" --name all \
    --out "$TMP" >/dev/null 2>&1
if python3 "$here/report/consistency.py" "$TMP/all" >"$TMP/check" 2>&1
then pass report_trace/consistency
else fail report_trace/consistency "$(head -c 600 "$TMP/check")"; fi
tail -1 "$TMP/check"
f=$TMP/all/chart-data/trace_roofline.csv
awk -F, -v OFS=, '/^# series: sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n/ { s = 1; print; next }
     s && !/^#/ { $3 = $3 * 1.1; s = 0 } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
if ! python3 "$here/report/consistency.py" "$TMP/all" >"$TMP/check" 2>&1 &&
   grep -q 'CONTRADICTION all: sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n.* at NA, GFLOP/s' "$TMP/check"
then pass report_trace/consistency_finds_planted_contradiction
else fail report_trace/consistency_finds_planted_contradiction "$(head -c 400 "$TMP/check")"; fi

# Other commands' files: no trace chart, no note about it; asked for by
# name, a note saying why not.
RUN=$here/fixtures/run-fixture.csv
"$GP" plot "$RUN" -c "$here/fixtures/ceilings-fixture.csv" --out "$TMP/p" >"$TMP/out" 2>"$TMP/err"
if ! grep -q trace_roofline "$TMP/out" "$TMP/err"; then pass report_trace/silent_on_other_runs
else fail report_trace/silent_on_other_runs "$(grep trace_roofline "$TMP/err" | head -1)"; fi
expect report_trace/named_on_other_runs 2 'trace_roofline: skipped' -- \
    "$GP" plot "$RUN" -c "$here/fixtures/ceilings-fixture.csv" --charts trace_roofline --out "$TMP/q"
