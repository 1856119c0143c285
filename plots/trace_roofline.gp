# trace_roofline.gp - where a traced program's GPU time goes, on the
# roofline: its top kernels, each a filled circle whose area is
# proportional to the kernel's share of the GPU time, labelled with its
# name and share.  gemmprof lays it out (src/plot/trace_roofline.c) and
# passes what roofline.gp takes, with pss: each marker's size.
here = ARG0[1:strlen(ARG0) - strlen('trace_roofline.gp')]
load here.'roofline.gp'
