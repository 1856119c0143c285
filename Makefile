# gemmprof - build, test, install.
#   make                 bin/gemmprof for the GPU(s) of this machine, or, with
#                        no GPU, for every supported architecture (CUDA 13.0+)
#   make test            CPU tests everywhere, GPU tests where a GPU is visible
#   make install PREFIX=/usr/local
#   make ARCH="sm_80 sm_90"   SASS for each, plus PTX of the newest
#   make ARCH=compute_80      PTX only: the driver compiles it for the GPU (JIT)
#   make plugin SRC=mine.cu [OUT=libmine.so]   a user's kernels for --plugin
#   make SANITIZE=1 test the C host code and the CPU tests under ASan + UBSan
#                        (build-san/, bin-san/; the CUDA objects come from build/)
#   make fuzz [FUZZ_SECONDS=N]   libFuzzer on the data-file readers (build-fuzz/)

CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
CC        ?= gcc
PREFIX    ?= /usr/local
VERSION   := 0.1.0
# GIT_COMMIT=... overrides (a copy of the tree without .git, e.g. on the GPU machine)
ifeq ($(origin GIT_COMMIT),undefined)
GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
endif

# ---- architectures (docs/gpus-and-builds.md) ----
# Supported: what CUDA 13 compiles for, one per chip family, listed once in
# src/arch/archs.def (its GP_ARCH lines: compute capability, then 1 where
# the arch-specific sm_XYa target is built too), oldest first.  ARCH
# unset: the compute capabilities nvidia-smi reports here, else all of
# ARCH_ALL.
ARCHS_DEF := src/arch/archs.def
open_paren := (
SUPPORTED_CCS := $(shell sed -n 's/^GP_ARCH$(open_paren) *\([0-9]*\) *,.*/\1/p' $(ARCHS_DEF))
SPECIFIC_CCS  := $(shell sed -n 's/^GP_ARCH$(open_paren) *\([0-9]*\) *, *1 *,.*/\1/p' $(ARCHS_DEF))
ARCH_ALL  := $(addprefix sm_,$(SUPPORTED_CCS))
# the oldest, e.g. 75 and 7.5
CC_MIN    := $(firstword $(SUPPORTED_CCS))
CC_MIN_X_Y := $(shell echo $(CC_MIN) | sed 's/.$$/.&/')
CUDA_MIN  := 13.0
# (tests/build.sh points NVIDIA_SMI at a stand-in)
NVIDIA_SMI ?= nvidia-smi
ifeq ($(origin ARCH),undefined)
GPU_CCS   := $(shell $(NVIDIA_SMI) --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | \
                 grep -E '^[0-9]+\.[0-9]+$$' | tr -d . | sort -un)
$(foreach c,$(GPU_CCS),$(if $(shell [ $(c) -lt $(CC_MIN) ] && echo old),\
    $(error this GPU is sm_$(c): CUDA $(CUDA_MIN) and gemmprof support sm_$(CC_MIN) (compute capability $(CC_MIN_X_Y)) and newer)))
ARCH      := $(if $(GPU_CCS),$(addprefix sm_,$(GPU_CCS)),$(ARCH_ALL))
endif
ifneq ($(filter-out sm_% compute_%,$(ARCH)),)
$(error ARCH: '$(filter-out sm_% compute_%,$(ARCH))' is not sm_XY or compute_XY (e.g. ARCH="sm_80 sm_90"))
endif
# One line naming the minimum toolkit, before nvcc fails on something newer.
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
NVCC_VERSION := $(shell $(NVCC) --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p')
ifneq ($(firstword $(shell printf '%s\n' $(CUDA_MIN) $(NVCC_VERSION) | sort -V)),$(CUDA_MIN))
$(error gemmprof needs the CUDA toolkit $(CUDA_MIN) or newer: $(NVCC) is $(or $(NVCC_VERSION),missing); set CUDA_HOME)
endif
endif
comma     := ,
SM_CCS    := $(patsubst sm_%,%,$(filter sm_%,$(ARCH)))
# PTX: the compute_XY named, else that of the newest sm_XY (runs on newer GPUs)
PTX_CCS   := $(or $(patsubst compute_%,%,$(filter compute_%,$(ARCH))),\
                  $(shell printf '%s\n' $(SM_CCS) | sort -n | tail -1))
# $(call gencode,SASS CCs,PTX CCs[,the CC built as its 'a' target instead])
# -> nvcc's -gencode options
gencode    = $(foreach c,$(1),-gencode arch=compute_$(c)$(if $(filter $(3),$(c)),a)$(comma)code=sm_$(c)$(if $(filter $(3),$(c)),a)) \
             $(foreach c,$(2),-gencode arch=compute_$(c)$(comma)code=compute_$(c))
GENCODE   := $(strip $(call gencode,$(SM_CCS),$(PTX_CCS)))
# What the binary contains, as gp_build_arch: the registry reads it to know
# which kernels have code for the GPU in hand (src/arch/build.c).
BUILD_CODES := $(foreach c,$(SM_CCS),sm_$(c) $(if $(filter $(c),$(SPECIFIC_CCS)),sm_$(c)a)) \
               $(addprefix compute_,$(PTX_CCS))

B         ?= build
BIN       ?= bin
# SANITIZE=1: C compiled and linked with AddressSanitizer and UBSan into its
# own folders.  nvcc's objects are not instrumented (device code cannot be),
# so they are shared with the plain build rather than compiled twice.
ifeq ($(SANITIZE),1)
B         := build-san
BIN       := bin-san
CUB       := build
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined,float-cast-overflow
CFLAGS    ?= -O1 -g
CFLAGS    += $(SAN_FLAGS)
LDFLAGS   += $(SAN_FLAGS)
endif
CUB       ?= $(B)
# Files named *_sm90a.cu use Hopper-only instructions (wgmma, setmaxnreg):
# where ARCH has sm_90 they are built for sm_90a instead (and without
# compute_90 PTX, so an H100 can only load the sm_90a code); for every
# other architecture their kernels compile empty (GP_KERNEL_NEEDS in
# kernels/rung.cuh) and the registry skips them, saying why.  The same for
# each CC that archs.def marks with an 'a' target: *_sm<CC>a.cu.
specific_gencode = $$(strip $$(call gencode,$$(SM_CCS),\
    $$(if $$(filter $(1),$$(SM_CCS)),$$(filter-out $(1),$$(PTX_CCS)),$$(PTX_CCS)),$(1)))
$(foreach c,$(SPECIFIC_CCS),$(eval $$(CUB)/kernels/%_sm$(c)a.cu.o: GENCODE := $(call specific_gencode,$(c))))
CPPFLAGS  += -Isrc -I$(CUDA_HOME)/include
# cupti_profiler_host.h includes <string>: C needs the empty one in src/cupti/compat.
$(B)/src/cupti/%.o $(B)/src/inject/%.o: CPPFLAGS += -Isrc/cupti/compat
# (private: not passed on to the library and objects a test depends on)
$(B)/tests/inject/%: private CPPFLAGS += -Isrc/cupti/compat
CFLAGS    ?= -O2 -g
# -fPIC: the host objects also go into the trace injection library, a
# shared object loaded into other programs.  One build serves both (Debian's
# gcc makes PIE code already; PIC costs nothing measurable on x86-64), and
# no object is compiled twice.
CFLAGS    += -std=c11 -D_GNU_SOURCE -Wall -Wextra -MMD -MP -fPIC
NVCCFLAGS ?= -O3 -lineinfo
NVCCFLAGS += -std=c++17 $(GENCODE) -Xcompiler -Wall,-Wextra -Xptxas -v
# rung 18 is its k loop as the source orders it: ptxas -O1 keeps that order
# (kernels/sgemm_18_steady_loop.cu says why)
$(CUB)/kernels/sgemm_18_steady_loop.cu.o: NVCCFLAGS += -Xptxas -O1
LDFLAGS   += -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64
# CMOCKA=DIR: a cmocka unpacked from its .deb (the GPU machine has no apt)
ifneq ($(CMOCKA),)
TEST_FLAGS := -I$(CMOCKA)/usr/include -L$(CMOCKA)/usr/lib/x86_64-linux-gnu \
              -Wl,-rpath,$(abspath $(CMOCKA))/usr/lib/x86_64-linux-gnu
endif
# JANSSON=DIR: the same for jansson (diff --format json)
ifneq ($(JANSSON),)
CPPFLAGS  += -I$(JANSSON)/usr/include
LDFLAGS   += -L$(JANSSON)/usr/lib/x86_64-linux-gnu -Wl,-rpath,$(abspath $(JANSSON))/usr/lib/x86_64-linux-gnu
endif
LDLIBS    += -ljansson -lcublas -lcudart -lstdc++ -ldl -lm -lpthread

# MPI (gemmprof dist): on when mpicc is on PATH (or MPICC names one); MPI=0
# forces it off: src/dist/nompi.c then says how to get it.  The index
# arithmetic, data and options of src/dist/ need no MPI and are always
# built (their unit tests run everywhere); the rest is compiled by mpicc.
MPICC     ?= mpicc
MPI       ?= $(if $(shell command -v $(MPICC) 2>/dev/null),1,0)
DIST_PURE := src/dist/layout.c src/dist/data.c src/dist/options.c
ifeq ($(MPI),1)
DIST_C    := $(filter-out src/dist/nompi.c,$(wildcard src/dist/*.c))
LINK_CC   := $(MPICC)
$(B)/src/dist/%.o: CC := $(MPICC)
else
DIST_C    := $(DIST_PURE) src/dist/nompi.c
LINK_CC   := $(CC)
endif

# Sources by folder: src/<component>/ (see docs/layout.md), kernels/, probes/.
# src/cli/main.c is the program; everything else goes into the library the
# tests link too.  src/inject/ is there as well, for its tests and for the
# contract gemmprof trace shares with it; the binary calls nothing of the
# library's own (its entry point is called by the CUDA driver only), so the
# linker takes none of that into gemmprof.
COMPONENTS := $(filter-out src/dist/,$(wildcard src/*/))
INJECT_C  := $(wildcard src/inject/*.c)
LIB_C     := $(filter-out src/cli/main.c,$(foreach d,$(COMPONENTS),$(wildcard $(d)*.c))) \
             $(DIST_C) $(wildcard kernels/*.c) $(wildcard probes/*.c)
LIB_CU    := $(foreach d,$(COMPONENTS),$(wildcard $(d)*.cu)) $(wildcard kernels/*.cu) $(wildcard probes/*.cu)
LIB_OBJ   := $(LIB_C:%.c=$(B)/%.o) $(LIB_CU:%.cu=$(CUB)/%.cu.o) $(B)/gen/ptxas_table.o $(B)/gen/version.o
TESTS     := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/*/test_*.c))

# gemmprof trace's injection library, next to the binary (BIN/../lib/gemmprof,
# where gemmprof looks; GEMMPROF_INJECT_LIB overrides): src/inject/ and the
# lower parts it needs (the CUPTI session code, the run-file writer), and
# nothing that needs the CUDA runtime, exits or prints (tests/trace.sh
# checks): it runs inside any CUDA application.
LIBDIR    ?= $(dir $(abspath $(BIN)))lib
ifeq ($(SANITIZE),1)   # its own, found through GEMMPROF_INJECT_LIB by the tests
LIBDIR    := $(abspath $(B))/lib
endif
INJECT    := $(LIBDIR)/gemmprof/libgemmprof-inject.so
INJECT_OBJ := $(INJECT_C:%.c=$(B)/%.o) \
             $(addprefix $(B)/src/cupti/,loader.o host.o session.o replay.o tensor_gate.o explain.o \
                              metric_list.o) \
             $(addprefix $(B)/src/data/,row.o value.o csv.o meta.o kernel_name.o) \
             $(addprefix $(B)/src/util/,text.o clock.o) \
             $(B)/src/gpu/occupancy.o $(B)/gen/version.o

.PHONY: all tests test check install clean plots report plugin arch fuzz fuzz-build FORCE
all: $(BIN)/gemmprof $(INJECT)

$(BIN)/gemmprof: $(B)/src/cli/main.o $(B)/libgemmprof.a
	@mkdir -p $(dir $@)
	$(LINK_CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

# The stamp rebuilds the library when MPI is switched on or off.
$(B)/libgemmprof.a: $(LIB_OBJ) $(B)/mpi-$(MPI).stamp
	@rm -f $@
	ar rcs $@ $(LIB_OBJ)

# --no-undefined: a part that needs the CUDA runtime (or anything else not
# loaded by every CUDA application) fails here, not inside someone's app.
$(INJECT): $(INJECT_OBJ) src/inject/inject.map
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $(INJECT_OBJ) $(SAN_FLAGS) -Wl,--no-undefined -Wl,-Bsymbolic \
	    -Wl,--version-script=src/inject/inject.map -ldl -lstdc++ -lpthread -lm

$(B)/mpi-$(MPI).stamp:
	@mkdir -p $(dir $@)
	@rm -f $(B)/mpi-*.stamp
	@touch $@

# Rewritten only when the C compiler or its flags change (as -fPIC once
# did), so every C object is rebuilt then, and only then.
$(B)/cflags.txt: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(CPPFLAGS) $(CFLAGS)' | cmp -s - $@ || echo '$(CC) $(CPPFLAGS) $(CFLAGS)' > $@

$(B)/%.o: %.c $(B)/cflags.txt
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# ptxas -v goes to a side file per object: the spill report the harness
# reports as spill_store_bytes/spill_load_bytes (a stack frame is not a spill).
$(CUB)/%.cu.o: %.cu $(wildcard kernels/*.cuh kernels/*.h kernels/*.def src/*.h src/*/*.h probes/*.h) $(CUB)/gen/arch.txt
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -c $< -o $@ 2> $@.ptxas || { cat $@.ptxas; exit 1; }
	@grep -v '^ptxas info\|^    [0-9]* bytes stack' $@.ptxas >&2 || true

$(B)/gen/ptxas_table.c: $(LIB_CU:%.cu=$(CUB)/%.cu.o) scripts/ptxas-table.awk
	@mkdir -p $(dir $@)
	awk -f scripts/ptxas-table.awk $(LIB_CU:%.cu=$(CUB)/%.cu.o.ptxas) > $@

# What this ARCH builds: `make -s arch` (docs/gpus-and-builds.md).
arch:
	@echo '$(strip $(BUILD_CODES))'

# Rewritten only when the architectures change: every CUDA object depends
# on it, so a build with another ARCH in the same folder recompiles them.
$(CUB)/gen/arch.txt: FORCE
	@mkdir -p $(dir $@)
	@echo '$(strip $(BUILD_CODES))' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# Rewritten only when the version, commit or flags change, so the binary
# always says which commit and build flags made it.
$(B)/gen/version.c: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '/* generated by make */' \
	  'const char *const gp_version = "$(VERSION)";' \
	  'const char *const gp_git_commit = "$(GIT_COMMIT)";' \
	  'const char *const gp_build_arch = "$(strip $(BUILD_CODES))";' \
	  'const char *const gp_build_flags = "$(NVCCFLAGS)";' \
	  'const char *const gp_cuda_home = "$(CUDA_HOME)";' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

FORCE:

$(B)/gen/%.o: $(B)/gen/%.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# A test is its own .c file plus any other .c it lists as a prerequisite.
$(B)/tests/%: tests/%.c $(B)/libgemmprof.a
	@mkdir -p $(dir $@)
	$(LINK_CC) $(CPPFLAGS) $(CFLAGS) -Itests $(TEST_FLAGS) -o $@ $(filter %.c,$^) $(B)/libgemmprof.a $(LDFLAGS) -lcmocka $(LDLIBS)

# Its realloc fails on demand: growing strings out of memory.
$(B)/tests/util/test_text: private LDFLAGS += -Wl,--wrap=realloc

# The fuzz targets' functions, replayed on the committed corpus and crashes.
$(B)/tests/fuzz/test_fuzz_replay: tests/fuzz/targets.c tests/fuzz/targets.h

tests: $(TESTS)

# Under SANITIZE=1: any ASan or UBSan report fails the test that caused it.
# verify_asan_link_order=0: tests/run.sh line-buffers output with stdbuf,
# an LD_PRELOAD that comes before ASan's runtime (harmless: it only sets
# buffering).  protect_shadow_gap=0: the CUDA driver maps memory where ASan
# reserves its shadow gap (only matters on a machine with a GPU).
ifeq ($(SANITIZE),1)
TEST_ENV  := ASAN_OPTIONS=verify_asan_link_order=0:protect_shadow_gap=0:detect_leaks=1 \
             UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 GEMMPROF_INJECT_LIB=$(INJECT)
endif

test check: $(BIN)/gemmprof $(INJECT) $(TESTS)
	@$(TEST_ENV) GEMMPROF_BIN=$(BIN)/gemmprof GEMMPROF_BUILD=$(CUB) bash tests/run.sh $(TESTS)

# Charts and reports from the committed reference data (no GPU needed),
# into results/ (git-ignored): building them leaves the source tree as it
# was (tests/clean_tree.sh checks).  REPORTS=reports/examples regenerates
# the committed example reports on purpose.
# DATA: which reports/data/<gpu>/ folders (default: every one, the lead's
# h100 too).
DATA ?= $(wildcard reports/data/*/)
CHARTS ?= results/charts
plots: $(BIN)/gemmprof
	for d in $(DATA); do $(BIN)/gemmprof plot $${d%/}/*.csv --out $(CHARTS)/$$(basename $$d) || exit; done

REPORTS ?= results/reports
report: $(BIN)/gemmprof
	for d in $(DATA); do $(BIN)/gemmprof report $${d%/}/*.csv --name $$(basename $$d) --out $(REPORTS) || exit; done

# The flags live in scripts/gemmprof-build (installed as bin/gemmprof-build).
plugin:
	@test -n "$(SRC)" || { echo "usage: make plugin SRC=mine.cu [OUT=libmine.so]" >&2; exit 2; }
	CUDA_HOME=$(CUDA_HOME) NVCC=$(NVCC) ARCH="$(ARCH)" scripts/gemmprof-build \
	    $(if $(OUT),-o $(OUT)) $(SRC)

install: $(BIN)/gemmprof $(INJECT)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/gemmprof \
	           $(DESTDIR)$(PREFIX)/lib/gemmprof \
	           $(DESTDIR)$(PREFIX)/share/gemmprof/plots $(DESTDIR)$(PREFIX)/share/gemmprof/reports
	install -m 755 $(BIN)/gemmprof $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(INJECT) $(DESTDIR)$(PREFIX)/lib/gemmprof/
	install -m 644 src/gemmprof.h $(DESTDIR)$(PREFIX)/include/gemmprof/
	install -m 755 scripts/gemmprof-build $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(ARCHS_DEF) $(DESTDIR)$(PREFIX)/share/gemmprof/
	install -m 644 plots/*.gp $(DESTDIR)$(PREFIX)/share/gemmprof/plots/
	cp -r reports/data $(DESTDIR)$(PREFIX)/share/gemmprof/reports/

# Fuzzing: clang's libFuzzer with ASan and UBSan on the readers of run
# files, ceilings, tuning tables and dist files (tests/fuzz/targets.c), one
# binary per reader; only the pure-C parts they need, instrumented.
# `make fuzz` runs each for FUZZ_SECONDS (two at a time) from the committed
# corpus; a crash stops it and names the input (tests/fuzz/run.sh).
FUZZ_CC      ?= clang
FUZZ_B       ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := runfile ceilings tuning dist
FUZZ_CFLAGS  := -g -O1 -std=c11 -D_GNU_SOURCE -Isrc -Itests/fuzz -fno-omit-frame-pointer \
                -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SRC     := $(wildcard src/data/*.c src/util/*.c src/arch/*.c src/plot/*.c src/diff/*.c) tests/fuzz/targets.c
FUZZ_OBJ     := $(FUZZ_SRC:%.c=$(FUZZ_B)/%.o) $(FUZZ_B)/gen/version.o

$(FUZZ_B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_B)/gen/version.o: $(B)/gen/version.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_B)/fuzz_%: tests/fuzz/fuzz_main.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DGP_FUZZ_FN=gp_fuzz_$* -o $@ $^ -ljansson -lm

.SECONDARY: $(FUZZ_OBJ)
fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%)

fuzz: fuzz-build
	bash tests/fuzz/run.sh $(FUZZ_B) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf $(B) $(BIN) $(LIBDIR)/gemmprof build-san bin-san $(FUZZ_B)

-include $(shell find $(B) $(FUZZ_B) -name '*.d' 2>/dev/null)
