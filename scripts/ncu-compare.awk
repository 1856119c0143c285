# ncu-compare.awk - the join behind scripts/ncu-compare.sh: gemmprof's run
# file against ncu's report (as CSV: launches named by NVTX range, and by
# kernel), per kernel and metric.  Variables: tol, rungs (space-separated),
# shape (MxNxK), cc, scrub, gpfile, nvtx, plain, pairs (CSV written).
# Exit 1 if an instruction count (sm__sass_*) differs.

# Split one CSV line (quoted fields may hold commas) into f[1..n].
function csv(line, f,    n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    sub(/\r$/, "", line)
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (c == "\"") { if (q && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else q = !q }
        else if (c == "," && !q) { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
# ncu prints big numbers with thousands separators
function num(s) { gsub(/,/, "", s); return s }
# Is `name` the NVTX range r, perhaps after a domain or other prefix, or
# ncu 2025.3's "RANGE/kernel name" (seen on the H100: the range first)?
function in_range(name, r,    p, c) {
    if (name == r || index(name, r "/") == 1) return 1
    p = length(name) - length(r)
    if (p <= 0 || substr(name, p + 1) != r) return 0
    c = substr(name, p, 1)
    return c !~ /[A-Za-z0-9_]/
}
function fmt(v) { return v == "" ? "NA" : v }

BEGIN {
    # gemmprof: header after the "#" metadata, one row per kernel
    hdr = 0
    while ((getline line < gpfile) > 0) {
        if (line ~ /^#/ || line == "") continue
        n = csv(line, f)
        if (!hdr) { for (i = 1; i <= n; i++) { col[f[i]] = i; if (f[i] ~ /__/) met[++nm] = f[i] } hdr = 1; continue }
        for (j = 1; j <= nm; j++) gp[f[col["kernel"]], met[j]] = f[col[met[j]]]
        seen[f[col["kernel"]]] = 1
    }
    close(gpfile)
    # ncu, by NVTX range: ID -> range
    h = 0; maxid = -1
    while ((getline line < nvtx) > 0) {
        n = csv(line, f)
        if (!h) { for (j = 1; j <= n; j++) rc[f[j]] = j; h = 1; continue }
        range[f[rc["ID"]] + 0] = f[rc["Kernel Name"]]
    }
    close(nvtx)
    # ncu, by kernel: ID -> kernel name, metric values
    h = 0
    while ((getline line < plain) > 0) {
        n = csv(line, f)
        if (!h) { for (j = 1; j <= n; j++) pc[f[j]] = j; h = 1; continue }
        id = f[pc["ID"]] + 0
        kname[id] = f[pc["Kernel Name"]]
        val[id, f[pc["Metric Name"]]] = num(f[pc["Metric Value"]])
        if (id > maxid) maxid = id
    }
    close(plain)

    print "kernel,metric,gemmprof,ncu,ratio" > pairs
    printf "# %s, --cache-control %s, gemmprof scrub %s\n", shape, cc, scrub
    printf "%-18s %-58s %16s %16s %8s\n", "kernel", "metric", "gemmprof", "ncu", "ratio"
    nr = split(rungs, r, / +/)
    for (i = 1; i <= nr; i++) {
        k = r[i]; if (k == "") continue
        want = k "/" shape
        c = 0; delete l
        for (id = 0; id <= maxid; id++)
            if ((id in range) && in_range(range[id], want) && kname[id] !~ /gp_scrub_/)
                l[++c] = id
        if (!(k in seen)) { printf "%-18s (no gemmprof row)\n", k; continue }
        if (c == 0) {
            printf "%-18s (no ncu launch in NVTX range %s; ranges seen:", k, want
            nseen = 0
            for (id = 0; id <= maxid && nseen < 5; id++)
                if ((id in range) && !(range[id] in shown)) { shown[range[id]] = 1; printf " '%s'", range[id]; nseen++ }
            printf ")\n"
            missing++
            continue
        }
        # verification launch, then the timed launch: the same kernels
        first = c % 2 == 0 ? c / 2 + 1 : c
        names = ""; ids = ""
        for (q = first; q <= c; q++) {
            names = names (q > first ? " + " : "") substr(kname[l[q]], 1, 60)
            ids = ids (q > first ? "," : "") l[q]
        }
        printf "# %s: ncu ID %s, the timed launch (last %d of %d launches in its range%s): %s\n",
               k, ids, c - first + 1, c, c % 2 ? "; odd count, so only the last" : "", names
        for (j = 1; j <= nm; j++) {
            m = met[j]; g = gp[k, m]
            sum = 0; wsum = 0; tsum = 0; have = 0
            for (q = first; q <= c; q++) {
                if (!((l[q], m) in val) || val[l[q], m] == "n/a") continue
                have = 1; v = val[l[q], m] + 0
                t = ((l[q], "gpu__time_duration.sum") in val) ? val[l[q], "gpu__time_duration.sum"] + 0 : 1
                sum += v; wsum += v * t; tsum += t
            }
            v = !have ? "" : m ~ /\.sum$/ ? sprintf("%.0f", sum) : sprintf("%.6g", tsum > 0 ? wsum / tsum : 0)
            if (g == "NA" || g == "" || v == "") { ratio = "NA"; bad = 1 }
            else if (g + 0 == 0 && v + 0 == 0) { ratio = "1.000"; bad = 0 }
            else if (v + 0 == 0) { ratio = "inf"; bad = 1 }
            else {
                x = g / v; ratio = sprintf("%.3f", x)
                # instruction counts are exact: any difference is a bug
                bad = (m ~ /sass_/) ? (g + 0 != v + 0) : (x < 1 - tol || x > 1 + tol)
            }
            total++; out += bad
            if (bad && m ~ /sass_/) exact_bad++
            printf "%-18s %-58s %16s %16s %8s%s\n", k, m, fmt(g), fmt(v), ratio, bad ? "  OUT" : ""
            printf "%s,%s,%s,%s,%s\n", k, m, fmt(g), fmt(v), ratio > pairs
        }
    }
    close(pairs)
    printf "%s: %d of %d values outside +-%g%% (%d of them instruction counts, compared exactly)%s\n",
           shape, out, total, 100 * tol, exact_bad, missing ? sprintf("; %d kernel(s) without ncu launches", missing) : ""
    exit exact_bad > 0 || missing > 0
}
