# ptxas-table.awk - turn the `nvcc -Xptxas -v` reports captured at build time
# into a C table: (mangled kernel name, architecture) -> registers, stack
# frame, spill bytes.  One row per kernel per real architecture ("for
# 'sm_90'"; PTX-only targets have no ptxas report).  A kernel compiled empty
# for an architecture without its feature (ptxas lists its call to
# gp_needs_<FEATURE>_stub right after it, kernels/rung.cuh) has no row there.
BEGIN {
    print "/* generated from ptxas -v by scripts/ptxas-table.awk: do not edit */"
    print "#include \"gpu/ptxas_facts.h\""
    print "const gp_ptxas_fact gp_ptxas_facts[] = {"
    n = 0
}
function flush() {
    if (cur != "" && have && !stub && !((cur, sm) in seen)) {
        printf "    {\"%s\", \"%s\", %d, %d, %d, %d, \"%s\"},\n", cur, sm, regs, stack, spst, spld, src
        seen[cur, sm] = 1; n++
    }
    cur = ""; have = stub = 0; stack = spst = spld = 0
}
FNR == 1 {   # build/kernels/sgemm_01_naive.cu.o.ptxas -> kernels/sgemm_01_naive.cu
    flush()
    src = FILENAME; sub(/\.o\.ptxas$/, "", src)   # drop the build folder, however deep
    if (match(src, /(kernels|probes|src)\/[^\/]*(\/[^\/]*)?$/)) src = substr(src, RSTART)
}
/Compiling entry function/ {
    flush()
    cur = $0; sub(/.*entry function '/, "", cur); sub(/'.*/, "", cur)
    sm = $0; sub(/.* for '/, "", sm); sub(/'.*/, "", sm)
    next
}
/Function properties for .*gp_needs_[A-Z0-9_]*_stub/ { stub = 1; next }
cur != "" && !have && /bytes stack frame/ {
    stack = $1; spst = $5; spld = $9
    next
}
cur != "" && !have && /Used [0-9]+ registers/ {
    regs = $0; sub(/.*Used /, "", regs); sub(/ registers.*/, "", regs)
    have = 1
}
END {
    flush()
    print "    {0, 0, 0, 0, 0, 0, 0}"
    print "};"
    print "const int gp_ptxas_fact_count = " n ";"
}
