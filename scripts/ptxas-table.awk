# ptxas-table.awk - turn the `nvcc -Xptxas -v` reports captured at build time
# into a C table: mangled kernel name -> registers, stack frame, spill bytes.
# Only the real-architecture entries count ("for 'sm_90'"); PTX has none.
BEGIN {
    print "/* generated from ptxas -v by scripts/ptxas-table.awk: do not edit */"
    print "#include \"gpu/ptxas_facts.h\""
    print "const gp_ptxas_fact gp_ptxas_facts[] = {"
    n = 0
}
FNR == 1 {   # build/kernels/sgemm_01_naive.cu.o.ptxas -> kernels/sgemm_01_naive.cu
    src = FILENAME; sub(/\.o\.ptxas$/, "", src)   # (build dir: the first component)
    sub(/^[^\/]*\//, "", src)
}
/Compiling entry function/ {
    fn = $0; sub(/.*entry function '/, "", fn); sub(/'.*/, "", fn)
    cur = (index($0, "'" arch "'") > 0 || index($0, "'" arch "a'") > 0) ? fn : ""
    next
}
cur != "" && /bytes stack frame/ {
    stack = $1; spst = $5; spld = $9
    next
}
cur != "" && /Used [0-9]+ registers/ {
    regs = $0; sub(/.*Used /, "", regs); sub(/ registers.*/, "", regs)
    if (!(cur in seen)) {
        printf "    {\"%s\", %d, %d, %d, %d, \"%s\"},\n", cur, regs, stack, spst, spld, src
        seen[cur] = 1; n++
    }
    cur = ""; stack = spst = spld = 0
}
END {
    print "    {0, 0, 0, 0, 0, 0}"
    print "};"
    print "const int gp_ptxas_fact_count = " n ";"
}
