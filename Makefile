# gemmprof - build, test, install.
#   make                 bin/gemmprof (builds without a GPU; needs the CUDA toolkit)
#   make test            CPU tests everywhere, GPU tests where a GPU is visible
#   make install PREFIX=/usr/local
#   make ARCH=sm_80      another target (PTX for the same arch is embedded too)
#   make plugin SRC=mine.cu [OUT=libmine.so]   a user's kernels for --plugin

CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
CC        ?= gcc
ARCH      ?= sm_90
PREFIX    ?= /usr/local
VERSION   := 0.1.0
# GIT_COMMIT=... overrides (a copy of the tree without .git, e.g. on the GPU machine)
ifeq ($(origin GIT_COMMIT),undefined)
GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
endif

SM        := $(patsubst sm_%,%,$(ARCH))
GENCODE   := -gencode arch=compute_$(SM),code=sm_$(SM) -gencode arch=compute_$(SM),code=compute_$(SM)

B         ?= build
BIN       ?= bin
# Files named *_sm90a.cu use Hopper-only instructions (wgmma, setmaxnreg):
# built for sm_90a alone; their launchers refuse other GPUs.
$(B)/kernels/%_sm90a.cu.o: GENCODE := -gencode arch=compute_90a,code=sm_90a
CPPFLAGS  += -Isrc -I$(CUDA_HOME)/include
# cupti_profiler_host.h includes <string>: C needs the empty one in src/cupti/compat.
$(B)/src/cupti/%.o $(B)/src/trace/inject.o $(B)/src/trace/inject_%.o: CPPFLAGS += -Isrc/cupti/compat
CFLAGS    ?= -O2 -g
# -fPIC: the host objects also go into the trace injection library, a
# shared object loaded into other programs.  One build serves both (Debian's
# gcc makes PIE code already; PIC costs nothing measurable on x86-64), and
# no object is compiled twice.
CFLAGS    += -std=c11 -D_GNU_SOURCE -Wall -Wextra -MMD -MP -fPIC
NVCCFLAGS ?= -O3 -lineinfo
NVCCFLAGS += -std=c++17 $(GENCODE) -Xcompiler -Wall,-Wextra -Xptxas -v
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
# forces it off: src/dist/dist_nompi.c then says how to get it.  The index
# arithmetic, data and options of src/dist/ need no MPI and are always
# built (their unit tests run everywhere); the rest is compiled by mpicc.
MPICC     ?= mpicc
MPI       ?= $(if $(shell command -v $(MPICC) 2>/dev/null),1,0)
DIST_PURE := src/dist/dist_layout.c src/dist/dist_data.c src/dist/dist_options.c
ifeq ($(MPI),1)
DIST_C    := $(filter-out src/dist/dist_nompi.c,$(wildcard src/dist/*.c))
LINK_CC   := $(MPICC)
$(B)/src/dist/%.o: CC := $(MPICC)
else
DIST_C    := $(DIST_PURE) src/dist/dist_nompi.c
LINK_CC   := $(CC)
endif

# Sources by folder: src/<component>/ (see README's layout), kernels/, probes/.
# src/cli/main.c is the program; everything else goes into the library the
# tests link too, except the trace injection library's own files.
COMPONENTS := $(filter-out src/dist/,$(wildcard src/*/))
INJECT_C  := $(wildcard src/trace/inject*.c)
LIB_C     := $(filter-out src/cli/main.c $(INJECT_C),$(foreach d,$(COMPONENTS),$(wildcard $(d)*.c))) \
             $(DIST_C) $(wildcard kernels/*.c) $(wildcard probes/*.c)
LIB_CU    := $(foreach d,$(COMPONENTS),$(wildcard $(d)*.cu)) $(wildcard kernels/*.cu) $(wildcard probes/*.cu)
LIB_OBJ   := $(LIB_C:%.c=$(B)/%.o) $(LIB_CU:%.cu=$(B)/%.cu.o) $(B)/gen/ptxas_table.o $(B)/gen/version.o
TESTS     := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/*/test_*.c))

# gemmprof trace's injection library, next to the binary (BIN/../lib/gemmprof,
# where gemmprof looks; GEMMPROF_INJECT_LIB overrides).  It holds the CUPTI
# session code, the run-file writer and the trace pieces they share, and
# nothing that needs the CUDA runtime: it runs inside any CUDA application.
LIBDIR    ?= $(dir $(abspath $(BIN)))lib
INJECT    := $(LIBDIR)/gemmprof/libgemmprof-inject.so
INJECT_OBJ := $(INJECT_C:%.c=$(B)/%.o) \
             $(addprefix $(B)/src/trace/,env.o filter.o launch_row.o) \
             $(addprefix $(B)/src/cupti/,loader.o host.o session.o replay.o explain.o metric_list.o) \
             $(addprefix $(B)/src/data/,row.o csv.o meta.o kernel_name.o) \
             $(addprefix $(B)/src/util/,errors.o text.o) \
             $(B)/src/gpu/occupancy.o $(B)/gen/version.o

.PHONY: all tests test check install clean plots report plugin FORCE
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
$(INJECT): $(INJECT_OBJ) src/trace/inject.map
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $(INJECT_OBJ) -Wl,--no-undefined -Wl,-Bsymbolic \
	    -Wl,--version-script=src/trace/inject.map -ldl -lstdc++ -lpthread -lm

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
$(B)/%.cu.o: %.cu $(wildcard kernels/*.cuh kernels/*.def src/*.h src/*/*.h probes/*.h)
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -c $< -o $@ 2> $@.ptxas || { cat $@.ptxas; exit 1; }
	@grep -v '^ptxas info\|^    [0-9]* bytes stack' $@.ptxas >&2 || true

$(B)/gen/ptxas_table.c: $(LIB_CU:%.cu=$(B)/%.cu.o) scripts/ptxas-table.awk
	@mkdir -p $(dir $@)
	awk -v arch=$(ARCH) -f scripts/ptxas-table.awk $(LIB_CU:%.cu=$(B)/%.cu.o.ptxas) > $@

# Rewritten only when the version, commit or flags change, so the binary
# always says which commit and build flags made it.
$(B)/gen/version.c: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '/* generated by make */' \
	  'const char *const gp_version = "$(VERSION)";' \
	  'const char *const gp_git_commit = "$(GIT_COMMIT)";' \
	  'const char *const gp_build_arch = "$(ARCH)";' \
	  'const char *const gp_build_flags = "$(NVCCFLAGS)";' \
	  'const char *const gp_cuda_home = "$(CUDA_HOME)";' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

FORCE:

$(B)/gen/%.o: $(B)/gen/%.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/tests/%: tests/%.c $(B)/libgemmprof.a
	@mkdir -p $(dir $@)
	$(LINK_CC) $(CPPFLAGS) $(CFLAGS) -Itests $(TEST_FLAGS) -o $@ $< $(B)/libgemmprof.a $(LDFLAGS) -lcmocka $(LDLIBS)

tests: $(TESTS)

test check: $(BIN)/gemmprof $(INJECT) $(TESTS)
	@GEMMPROF_BIN=$(BIN)/gemmprof bash tests/run.sh $(TESTS)

# Charts and reports from the committed reference data (no GPU needed).
plots: $(BIN)/gemmprof
	for d in reports/data/*/; do $(BIN)/gemmprof plot $$d*.csv --out reports/charts/$$(basename $$d) || exit; done

report: $(BIN)/gemmprof
	for d in reports/data/*/; do $(BIN)/gemmprof report $$d*.csv --name $$(basename $$d) || exit; done

# The flags live in scripts/gemmprof-build (installed as bin/gemmprof-build).
plugin:
	@test -n "$(SRC)" || { echo "usage: make plugin SRC=mine.cu [OUT=libmine.so]" >&2; exit 2; }
	CUDA_HOME=$(CUDA_HOME) NVCC=$(NVCC) ARCH=$(ARCH) scripts/gemmprof-build \
	    $(if $(OUT),-o $(OUT)) $(SRC)

install: $(BIN)/gemmprof $(INJECT)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/gemmprof \
	           $(DESTDIR)$(PREFIX)/lib/gemmprof \
	           $(DESTDIR)$(PREFIX)/share/gemmprof/plots $(DESTDIR)$(PREFIX)/share/gemmprof/reports
	install -m 755 $(BIN)/gemmprof $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(INJECT) $(DESTDIR)$(PREFIX)/lib/gemmprof/
	install -m 644 src/gemmprof.h $(DESTDIR)$(PREFIX)/include/gemmprof/
	install -m 755 scripts/gemmprof-build $(DESTDIR)$(PREFIX)/bin/
	install -m 644 plots/*.gp $(DESTDIR)$(PREFIX)/share/gemmprof/plots/
	cp -r reports/data $(DESTDIR)$(PREFIX)/share/gemmprof/reports/

clean:
	rm -rf $(B) $(BIN) $(LIBDIR)/gemmprof

-include $(shell find $(B) -name '*.d' 2>/dev/null)
