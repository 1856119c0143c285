# arch-check.awk - does each architecture of a build contain exactly the
# kernels the kernel table says it supports?  Reads, in this order:
#   src/arch/arch.h        the features: minimum CC, sm_90a-only, library
#   kernels/ladder.def     each rung's launcher and `needs`
#   LAUNCHERS              "launcher file" lines (which .cu defines each)
#   the build's *.cu.o.ptxas reports (nvcc -Xptxas -v)
# with -v codes="sm_75 ... sm_90a compute_120" (the build's gen/arch.txt).
# A kernel compiled empty calls gp_needs_<FEATURE>_stub, which ptxas lists
# right after it (kernels/rung.cuh).  Prints, per SASS architecture,
#   PASS arch/sm_80            or   FAIL arch/sm_80: what is wrong
# (sm_90 and sm_90a are one line: the *_sm90a.cu files replace one by the
# other) and SKIP for PTX targets, which only the driver compiles.
BEGIN { file_no = 0 }
FNR == 1 { file_no++ }

# ---- arch.h: #define GP_FEAT_CC_X N and the GP_FEATURES rows ----
file_no == 1 && /^#define GP_FEAT_CC_[A-Z0-9_]+ +[0-9]+/ { mincc[$2] = $3; next }
file_no == 1 && /^ *X\([A-Z0-9_]+, *"/ {
    row = $0; sub(/^ *X\(/, "", row); sub(/\).*/, "", row)
    n = split(row, f, /, */)
    id = f[1]; c = f[n - 2]
    need[id] = (c in mincc) ? mincc[c] : 0     # NONE: GP_CC_MIN, any build
    specific[id] = f[n - 1] + 0; library[id] = f[n] + 0
    next
}
# ---- ladder.def: GP_RUNG(name, prec, launcher, needs, "idea") ----
file_no == 2 && /^GP_RUNG\(/ {
    row = $0; sub(/^GP_RUNG\(/, "", row)
    split(row, f, /, */)
    rung_of[f[3]] = f[1]; feat_of_launcher[f[3]] = f[4]; nrungs++
    next
}
# ---- launcher -> file ----
file_no == 3 { file_of_launcher[$1] = $2; next }
# ---- ptxas reports: entries per (file, code), stub or real ----
file_no >= 4 && FNR == 1 {   # BUILD/kernels/x.cu.o.ptxas -> kernels/x.cu
    src = FILENAME; sub(/\.o\.ptxas$/, "", src)
    if (match(src, /(kernels|probes|src)\/[^\/]*(\/[^\/]*)?$/)) src = substr(src, RSTART)
    cur = ""
}
file_no >= 4 && /Compiling entry function/ {
    cur = $0; sub(/.*entry function '/, "", cur); sub(/'.*/, "", cur)
    code = $0; sub(/.* for '/, "", code); sub(/'.*/, "", code)
    key = src SUBSEP cur SUBSEP code
    entries[key] = "REAL"; has_kernels[src] = 1
    next
}
file_no >= 4 && cur != "" && /Function properties for .*gp_needs_[A-Z0-9_]*_stub/ {
    feat = $0; sub(/.*gp_needs_/, "", feat); sub(/_stub.*/, "", feat)
    entries[src SUBSEP cur SUBSEP code] = feat
    next
}

function cc_of(c,    d) { d = c; sub(/^(sm|compute)_/, "", d); sub(/a$/, "", d); return d + 0 }
# the kernels/rung.cuh rule: does code c carry the real body of a kernel
# needing feature ft?
function has(ft, c) {
    if (specific[ft]) return c == ("sm_" need[ft] "a")
    return cc_of(c) >= need[ft]
}

END {
    if (nrungs == 0 || !("NONE" in need)) { print "FAIL arch/inputs: no kernel table or no features read"; exit 1 }
    # each .cu file's feature: that of the rungs it defines (library
    # features are another library's code: NONE here)
    for (l in file_of_launcher) {
        if (!(l in rung_of)) continue
        ft = feat_of_launcher[l]; if (library[ft]) ft = "NONE"
        fl = file_of_launcher[l]
        if ((fl in file_feat) && file_feat[fl] != ft)
            mixed[fl] = file_feat[fl] " and " ft
        file_feat[fl] = ft
    }
    for (l in rung_of)
        if (!library[feat_of_launcher[l]] && feat_of_launcher[l] != "NONE" && !(l in file_of_launcher))
            orphan = orphan " " rung_of[l]
    ncodes = split(codes, cl, / +/)
    for (i = 1; i <= ncodes; i++) {
        c = cl[i]
        if (c ~ /^compute_/) { print "SKIP arch/" c ": PTX, compiled by the driver at load time (no ptxas report)"; continue }
        if (c ~ /a$/) continue                  # reported with its plain arch
        why = ""; real = stub = 0
        if (orphan != "") why = why "; no .cu defines the launcher of" orphan
        for (fl in mixed) why = why "; " fl " defines rungs needing " mixed[fl]
        variant = c "a"                         # sm_90 -> sm_90a, if the build has it
        has_variant = index(" " codes " ", " " variant " ") > 0
        for (k in entries) {
            split(k, p, SUBSEP)
            if (p[3] != c && !(has_variant && p[3] == variant)) continue
            ft = (p[1] in file_feat) ? file_feat[p[1]] : "NONE"
            got = entries[k]
            if (has(ft, p[3])) {
                if (got != "REAL") why = why "; " p[1] " " p[2] " compiled empty (" got ") for " p[3]
                else real_in[p[1]] = 1
            } else if (got != ft)
                why = why "; " p[1] " " p[2] " for " p[3] ": " (got == "REAL" ? "real code" : "empty for " got) ", expected empty for " ft
            if (got == "REAL") real++; else stub++
        }
        # every rung this architecture supports has real code in its file
        # (files with no kernel at all launch a library's: cuBLAS)
        for (l in rung_of) {
            ft = feat_of_launcher[l]
            fl = file_of_launcher[l]
            if (library[ft] || !(l in file_of_launcher) || !(fl in has_kernels)) continue
            ok = has(ft, c) || (has_variant && has(ft, variant))
            if (ok && !(fl in real_in)) why = why "; " rung_of[l] " has no real kernel for " c " in " fl
        }
        delete real_in
        if (why == "") printf "PASS arch/%s: %d kernels compiled, %d empty where their feature is missing\n", c, real, stub
        else print "FAIL arch/" c ":" substr(why, 2)
    }
}
