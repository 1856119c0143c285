#!/usr/bin/env bash
# report_safety.sh - `gemmprof report` and `plot` on hostile names (CPU
# only): a data file named with quotes, $(), spaces and a newline, the same
# text in --out and --name, a kernel whose name holds a newline and a groff
# request, a precision that would climb out of the chart folder.  No shell
# runs (no PWNED file appears), the report is complete, the odd row is in
# every table, escaped.  Then interrupted commands: SIGINT/SIGTERM mid-way
# leave no hidden temp folder and no helper running, and the exit status is
# 128+N.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
export GEMMPROF_PLOTS=${GEMMPROF_PLOTS:-$here/../plots}
case $GP in */*) GP=$(cd "$(dirname "$GP")" && pwd)/$(basename "$GP") ;; esac  # tests cd
FX=$here/fixtures

for tool in gnuplot pdftotext pdfunite; do
    if ! command -v $tool >/dev/null; then
        skip report_safety/all "$tool not installed (apt-get install gnuplot-nox poppler-utils)"
        exit 0
    fi
done

# no_pwned NAME: no file called PWNED anywhere under $TMP (the shell ran)
no_pwned() {
    local found; found=$(find "$TMP" -name 'PWNED*' 2>/dev/null)
    [ -z "$found" ] && pass "$1" || fail "$1" "a shell ran: $found"
}

# The fixture with warptile renamed to a name holding a newline that would
# start a groff request (.ab aborts groff) and a '|' (a table's separator).
mkdir -p "$TMP/in dir" "$TMP/cwd"
NL=$'\n'
DATA="$TMP/in dir/data'\$(touch PWNED)' it's${NL}x.csv"
awk 'BEGIN { FS = OFS = "," }
     /^#/ || $1 != "warptile" { print; next }
     { $1 = "\"warp\n.ab|x\""; print }' "$FX/run-fixture.csv" >"$DATA"
grep -q '^\.ab|x' "$DATA" && pass report_safety/fixture_has_newline_name ||
    fail report_safety/fixture_has_newline_name

# ---- the report from a file with such a name ----
OUT=$TMP/reports
(cd "$TMP/cwd" && "$GP" report "$DATA" --out "$OUT") >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && pass report_safety/odd_file_name_exit_0 ||
    fail report_safety/odd_file_name_exit_0 "exit $rc: $(head -c 300 "$TMP/err")"
no_pwned report_safety/odd_file_name_runs_no_shell
# the default name is the file's stem, cleaned into one folder-name word
D=$OUT/data___touch_PWNED___it_s_x
[ -s "$D/report.pdf" ] && [ -s "$D/tables/summary.md" ] && [ -s "$D/tables/summary.tex" ] &&
    pass report_safety/report_complete ||
    fail report_safety/report_complete "$(ls -A "$OUT" "$D" 2>&1 | tr '\n' ' ')"
# the kernel's row, its newline a space, in Markdown (its '|' escaped) ...
grep -qF '| warp .ab\|x | fp32 |' "$D/tables/summary.md" &&
    ! grep -q '^\.ab' "$D/tables/summary.md" && pass report_safety/markdown_row_escaped ||
    fail report_safety/markdown_row_escaped "$(grep -n 'warp\|ab' "$D/tables/summary.md")"
# ... in LaTeX, on one line ...
grep -q '^warp .ab|x & ' "$D/tables/summary.tex" && pass report_safety/latex_row_escaped ||
    fail report_safety/latex_row_escaped "$(grep -n 'warp\|ab' "$D/tables/summary.tex")"
# ... and in the PDF's typeset table (groff would have aborted on .ab, or
# dropped the row as a request); the data file's own name on the first page
if command -v gropdf >/dev/null; then
    text=$(pdftotext -f 1 -l 2 "$D/report.pdf" - 2>/dev/null)
    grep -qF 'warp .ab/x' <<<"$text" && pass report_safety/pdf_row_present ||
        fail report_safety/pdf_row_present "$(grep -n 'warp\|naive' <<<"$text" | head -5)"
    grep -qF 'touch PWNED' <<<"$text" && pass report_safety/pdf_names_data_file ||
        fail report_safety/pdf_names_data_file "$(grep -n 'data' <<<"$text" | head -5)"
else
    skip report_safety/pdf_row_present "groff not installed (apt-get install groff)"
    skip report_safety/pdf_names_data_file "groff not installed (apt-get install groff)"
fi
# without groff: the tables as fixed-width text pages, the row on one line
mkdir -p "$TMP/nogroff"
for tool in gnuplot pdfunite; do ln -s "$(command -v $tool)" "$TMP/nogroff/$tool"; done
PATH=$TMP/nogroff "$GP" report "$DATA" --out "$OUT" --name nogroff >"$TMP/out" 2>"$TMP/err"
rc=$?
text=$(pdftotext -f 1 -l 3 -layout "$OUT/nogroff/report.pdf" - 2>/dev/null)
[ $rc = 0 ] && grep -q 'warp .ab|x  *fp32' <<<"$text" && ! grep -q '^ *\.ab' <<<"$text" &&
    pass report_safety/text_pages_row_on_one_line ||
    fail report_safety/text_pages_row_on_one_line "exit $rc: $(grep -n 'ab|x' <<<"$text" | head -3)"
cmp -s "$DATA" "$D/data/$(basename "$DATA")" && pass report_safety/data_copied_under_its_name ||
    fail report_safety/data_copied_under_its_name "$(ls "$D/data")"

# ---- the same text in --out and --name ----
ODD="$TMP/out'\$(touch PWNED)' \"q\" dir"
(cd "$TMP/cwd" && "$GP" report "$FX/run-fixture.csv" --out "$ODD" --name "it's \$(touch PWNED)") \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && [ -s "$ODD/it's \$(touch PWNED)/report.pdf" ] && pass report_safety/odd_out_and_name ||
    fail report_safety/odd_out_and_name "exit $rc: $(head -c 300 "$TMP/err")"
no_pwned report_safety/odd_out_and_name_runs_no_shell
expect report_safety/name_with_newline_refused 2 "^gemmprof: bad --name: it holds a newline or other control character$" -- \
    "$GP" report "$FX/run-fixture.csv" --out "$TMP/nl" --name "a${NL}b"
[ -e "$TMP/nl" ] && fail report_safety/refused_name_leaves_nothing ||
    pass report_safety/refused_name_leaves_nothing

# ---- a precision that names a path: the chart files stay in the folder ----
awk 'BEGIN { FS = OFS = "," } /^#/ || NR == 0 { print; next }
     $2 == "fp32" { $2 = "../../x" } { print }' "$FX/run-fixture.csv" >"$TMP/prec.csv"
"$GP" plot "$TMP/prec.csv" --out "$TMP/charts/deep" >"$TMP/out" 2>"$TMP/err"
rc=$?
bad=$(find "$TMP/charts" -type f | grep -v '^'"$TMP"'/charts/deep/[A-Za-z0-9._-]*$')
[ $rc = 0 ] && [ -z "$bad" ] && [ -n "$(ls "$TMP/charts/deep")" ] &&
    pass report_safety/precision_cleaned_in_chart_names ||
    fail report_safety/precision_cleaned_in_chart_names "exit $rc, $(head -c 200 "$TMP/err") $bad"

# ---- interrupted: SIGINT or SIGTERM mid-way ----
# A gnuplot that draws two charts, then hangs (recording its pid): the
# signal comes while a helper runs and the hidden folder is half full.
mkdir -p "$TMP/bin"
real_gnuplot=$(command -v gnuplot)
cat >"$TMP/bin/gnuplot" <<EOS
#!/bin/sh
echo \$\$ >>"$TMP/gnuplot.pids"
[ \$(wc -l <"$TMP/gnuplot.pids") -le 2 ] && exec "$real_gnuplot" "\$@"
exec sleep 60
EOS
chmod +x "$TMP/bin/gnuplot"

# interrupt NAME SIG CMD...: run CMD (signals at their defaults, as from a
# terminal), wait for the hanging gnuplot, send SIG to gemmprof alone.
interrupt() {
    local name=$1 sig=$2; shift 2
    local out=$TMP/int-$name
    rm -f "$TMP/gnuplot.pids"
    PATH="$TMP/bin:$PATH" env --default-signal=INT,TERM "$@" --out "$out" >/dev/null 2>&1 &
    local pid=$! i
    for i in $(seq 200); do
        [ "$(wc -l 2>/dev/null <"$TMP/gnuplot.pids")" = 3 ] && break
        sleep 0.1
    done
    local hidden_before; hidden_before=$(ls -A "$out" 2>/dev/null | grep '^\.')
    kill -s "$sig" "$pid"
    wait "$pid"; local rc=$?
    local want=$((128 + $(kill -l "$sig")))
    local left; left=$(ls -A "$out" 2>/dev/null | grep '^\.')
    local hang; hang=$(tail -1 "$TMP/gnuplot.pids")
    if [ -z "$hidden_before" ]; then fail "$name" "no hidden folder while it ran: too late"
    elif [ "$rc" != "$want" ]; then fail "$name" "exit $rc, wanted $want"
    elif [ -n "$left" ]; then fail "$name" "left behind: $left"
    elif kill -0 "$hang" 2>/dev/null; then kill "$hang"; fail "$name" "gnuplot $hang still runs"
    else pass "$name"; fi
}
interrupt report_safety/report_sigint_cleans_up INT "$GP" report "$FX/run-fixture.csv"
interrupt report_safety/report_sigterm_cleans_up TERM "$GP" report "$FX/run-fixture.csv"
interrupt report_safety/plot_sigint_cleans_up INT "$GP" plot "$FX/run-fixture.csv"
interrupt report_safety/plot_sigterm_cleans_up TERM "$GP" plot "$FX/run-fixture.csv"
