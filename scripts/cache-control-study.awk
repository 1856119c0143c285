# cache-control-study.awk - one shape class's table for
# scripts/cache-control-study.sh: the pairs files of scripts/ncu-compare.sh
# (kernel,metric,gemmprof,ncu,ratio) side by side, one column per scrub
# variant against ncu --cache-control all, and gemmprof none against ncu
# none.  Variables: variants (space-separated), dir (the work folder),
# s (MxNxK), class.  Also writes dir/summary-CLASS.tsv: class, variant,
# values within 2%, values, worst DRAM read ratio, worst DRAM write ratio.

function load(file, tag,    line, n, f, key) {
    if ((getline line < file) <= 0) { missing = missing " " file; return }
    while ((getline line < file) > 0) {
        n = split(line, f, ",")
        key = f[1] "," f[2]
        if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
        g[tag, key] = f[3]; u[tag, key] = f[4]
    }
    close(file)
}
function ratio(a, b) {
    if (a == "NA" || b == "NA" || a == "" || b == "") return "NA"
    if (a + 0 == 0 && b + 0 == 0) return "1.000"
    if (b + 0 == 0) return "inf"
    return sprintf("%.3f", a / b)
}
# Within 2%; an instruction count only when exact.
function agrees(a, b, metric,    r) {
    r = ratio(a, b)
    if (r == "NA" || r == "inf") return 0
    if (metric ~ /sass_/) return a + 0 == b + 0
    return r + 0 >= 0.98 && r + 0 <= 1.02
}
# Keep the DRAM ratio farthest from 1 for tag.
function note_worst(tag, metric, kernel, r,    d) {
    if (metric !~ /^dram__bytes_(read|write)/ || r == "NA" || r == "inf") return
    d = r + 0 < 1 ? (r + 0 > 0 ? 1 / r : 1e9) : r + 0
    if (d > far[tag, metric]) { far[tag, metric] = d; worst[tag, metric] = r " " kernel }
}
BEGIN {
    nv = split(variants, v, " ")
    for (i = 1; i <= nv; i++) load(dir "/pairs-" s "-all-" v[i] ".csv", v[i])
    load(dir "/pairs-" s "-none-none.csv", "none")
    v[nv + 1] = "none"
    printf "%s (%s): gemmprof/ncu per scrub variant against ncu --cache-control all;\n", class, s
    printf "none/all: ncu's none over ncu's all (how much the convention moves ncu);\n"
    printf "gp_none: gemmprof --cache-control none over ncu --cache-control none\n\n"
    printf "%-17s %-52s %14s %9s", "kernel", "metric", "ncu_all", "none/all"
    for (i = 1; i <= nv; i++) printf " %10s", substr(v[i], 1, 10)
    printf " %10s\n", "gp_none"
    for (j = 1; j <= nk; j++) {
        key = order[j]; split(key, km, ",")
        ref = u[v[1], key]
        printf "%-17s %-52s %14s %9s", km[1], substr(km[2], 1, 52), ref == "" ? "NA" : ref,
               ratio(u["none", key], ref)
        for (i = 1; i <= nv + 1; i++) {
            t = v[i]
            r = ratio(g[t, key], u[t, key])
            printf " %10s", r
            ok[t] += agrees(g[t, key], u[t, key], km[2])
            note_worst(t, km[2], km[1], r)
        }
        printf "\n"
    }
    printf "\nwithin 2%% (instruction counts exact), of %d values:\n", nk
    out = dir "/summary-" class ".tsv"
    for (i = 1; i <= nv + 1; i++) {
        t = v[i]
        rd = worst[t, "dram__bytes_read.sum"]; wr = worst[t, "dram__bytes_write.sum"]
        printf "  %-12s %4d   worst DRAM read %s, worst DRAM write %s\n",
               t == "none" ? "none/none" : t, ok[t], rd == "" ? "-" : rd, wr == "" ? "-" : wr
        printf "%s\t%s\t%d\t%d\t%s\t%s\n", class, t == "none" ? "none/none" : t, ok[t], nk,
               rd == "" ? "-" : rd, wr == "" ? "-" : wr > out
    }
    close(out)
    if (missing != "") printf "missing:%s (see %s.log)\n", missing, class
}
