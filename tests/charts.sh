#!/usr/bin/env bash
# charts.sh - the charts are one list (src/plot/charts.def) and everything
# that names them agrees with it: each line has its gnuplot script in
# plots/ and a drawing file that draws with that script; every script in
# plots/ is some line's (or a helper the others load); `gemmprof plot
# --help`, the --charts error message and docs/coursework-report.md name
# every chart, and --charts takes every name.  The check is shown to fail
# on a copy with a chart missing from one place.  CPU only.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..

# Scripts that draw no chart of their own: the style every script loads,
# the report's text pages (src/report/front.c).
HELPERS="style.gp table.gp"

# check ROOT: one line per disagreement, none if the lists agree.
check() {
    local r=$1 def=$1/src/plot/charts.def
    local names scripts help err
    names=$(sed -n 's/^GP_CHART([A-Z_0-9]*, *"\([a-z_0-9]*\)".*/\1/p' "$def")
    scripts=$(sed -n 's/^GP_CHART([^"]*"[^"]*", *[a-z_0-9]*, *"\([^"]*\)".*/\1/p' "$def")
    [ -n "$names" ] || echo "no GP_CHART lines in $def"
    [ "$(echo "$names" | wc -l)" = "$(grep -c '^GP_CHART(' "$def")" ] ||
        echo "a GP_CHART line of $def not read (name and script on its first line)"
    for s in $scripts; do
        [ -f "$r/plots/$s" ] || echo "charts.def names plots/$s, which is missing"
        grep -lq "\"$s\"" "$r"/src/plot/*.c 2>/dev/null ||
            echo "no file of src/plot/ draws with $s"
    done
    for f in "$r"/plots/*.gp; do
        local b; b=$(basename "$f")
        case " $HELPERS $(echo $scripts) " in *" $b "*) ;; *)
            echo "plots/$b is no chart's script in charts.def" ;; esac
    done
    sed -n 's/^GP_CHART([^,]*, *"[^"]*", *\([a-z_0-9]*\),.*/\1/p' "$def" | while read -r fn; do
        grep -q "^int $fn(" "$r"/src/plot/*.c || echo "no src/plot/*.c defines $fn"
    done
    help=$("$GP" plot --help 2>&1)
    err=$("$GP" plot --charts no_such_chart x.csv 2>&1)
    for n in $names; do
        grep -Eq "^ +$n " <<<"$help" || echo "gemmprof plot --help does not list $n"
        grep -q "[( ]$n," <<<"$err" || echo "the unknown-chart message does not name $n"
        "$GP" plot --charts "$n" "$TMP/none.csv" 2>&1 | grep -q "unknown chart" &&
            echo "--charts $n is refused"
        grep -q "\`$n\`" "$r/docs/coursework-report.md" ||
            echo "docs/coursework-report.md does not name \`$n\`"
    done
}

out=$(check "$root")
if [ -z "$out" ]; then pass charts/one_list
else fail charts/one_list "$(head -c 600 <<<"$out")"; fi
n=$(sed -n 's/^GP_CHART([A-Z_0-9]*, *"\([a-z_0-9]*\)".*/\1/p' "$root/src/plot/charts.def" | wc -l)
echo "charts.def: $n charts"

# The check can fail: a copy of the lists with a script no line names, a
# line whose script is gone, and a chart the docs leave out.
P=$TMP/planted
mkdir -p "$P/src/plot" "$P/plots" "$P/docs"
cp "$root"/src/plot/*.c "$root/src/plot/charts.def" "$P/src/plot/"
cp "$root"/plots/*.gp "$P/plots/"
touch "$P/plots/pie.gp"
rm "$P/plots/metrics.gp"
sed 's/`speedup`//' "$root/docs/coursework-report.md" >"$P/docs/coursework-report.md"
out=$(check "$P")
if grep -q "plots/pie.gp is no chart's script" <<<"$out" &&
   grep -q "names plots/metrics.gp, which is missing" <<<"$out" &&
   grep -q "does not name \`speedup\`" <<<"$out"
then pass charts/finds_planted_disagreements
else fail charts/finds_planted_disagreements "$(head -c 600 <<<"$out")"; fi
