#!/usr/bin/env bash
# report_pages.sh - what report.pdf says, read back with pdftotext, on the
# committed data (CPU only): every figure page's caption is there whole
# (wrapped, never cut with "..."), the same as the front page lists it; the
# front page names each input with its own date and command (issue 28: the
# alphabetically first file's stood for all).
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
export GEMMPROF_PLOTS=${GEMMPROF_PLOTS:-$here/../plots}
for tool in gnuplot pdfinfo pdftotext groff; do
    if ! command -v $tool >/dev/null; then
        skip report_pages/all "$tool not installed (apt-get install gnuplot-nox poppler-utils groff)"
        exit 0
    fi
done

# Text with every space, hyphen and apostrophe gone: groff and gnuplot
# break lines (and words at hyphens) in different places, and groff sets
# ' as a typographic quote.
squash() { sed "s/’//g; s/'//g" | tr -d ' \n\t\f-'; }

# check_report NAME DIR/*.csv: the report of those files, page by page.
check_report() {
    local name=$1; shift
    local out=$TMP/$name
    if ! "$GP" report "$@" --name "$name" --out "$TMP" >/dev/null 2>"$TMP/err"; then
        fail "report_pages/$name" "$(tail -1 "$TMP/err")"; return
    fi
    local pdf=$out/report.pdf n p front=$TMP/$name-front.txt bad="" figs=0
    n=$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')
    : >"$front"
    for p in $(seq 1 "$n"); do
        pdftotext -f "$p" -l "$p" "$pdf" "$TMP/page.txt"
        # a figure page: its caption runs from "Figure N. " to a blank line
        local cap
        cap=$(tr -d '\f' <"$TMP/page.txt" |
              awk '/^Figure [0-9]+\. ./ { on = 1 } on && /^$/ { exit } on')
        if [ -z "$cap" ]; then
            # the page number is no part of a caption the page break split
            grep -v '^[0-9][0-9]*$' "$TMP/page.txt" >>"$front"
            continue
        fi
        figs=$((figs + 1))
        case $(tr '\n' ' ' <<<"$cap" | sed 's/ *$//') in
            *...) bad="$bad p$p:cut" ;;
            *.) ;;
            *) bad="$bad p$p:no-full-stop" ;;
        esac
        body=$(sed '1s/^Figure [0-9]*\. //' <<<"$cap" | squash)
        squash <"$front" | grep -qF -- "$body" || bad="$bad p$p:not-as-listed"
    done
    [ "$figs" -gt 0 ] && [ -z "$bad" ] && pass "report_pages/${name}_captions_whole" ||
        fail "report_pages/${name}_captions_whole" "$figs figure pages;$bad"
    bad=""
    local f i=0
    for f in "$@"; do
        case $f in *ceilings.csv) continue ;; esac
        head -c 4 "$f" | grep -q '# ' || continue
        grep -q '^# schema: gemmprof-run' "$f" || continue
        i=$((i + 1))
        local date cmd
        date=$(sed -n 's/^# date: //p' "$f" | head -1)
        cmd=$(sed -n 's/^# command: //p' "$f" | head -1 | cut -c1-60)
        squash <"$front" | grep -qF -- "$(squash <<<"$date")" || bad="$bad $f:date"
        squash <"$front" | grep -qF -- "$(squash <<<"$cmd")" || bad="$bad $f:command"
        grep -qw "input $i" "$front" || bad="$bad input-$i"
    done
    [ "$i" -gt 1 ] && [ -z "$bad" ] && pass "report_pages/${name}_every_input_dated" ||
        fail "report_pages/${name}_every_input_dated" "$i inputs;$bad"
}

H=$here/../reports/data
for d in h200 h200x2; do
    if [ -d "$H/$d" ]; then
        check_report "$d" $(ls "$H/$d"/*.csv | grep -v /tuning-)
    else
        skip "report_pages/$d" "no reports/data/$d"
    fi
done
