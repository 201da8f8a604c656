# ipcsim -- top-level GNU make. Out of tree into $(BUILD); -j friendly.
#
#   make            build everything (libraries, ipcsim, tests, benchmarks)
#   make test       lint, 30 s of fuzzing, unit/conformance tests, then again
#                   under ASan+UBSan, then the native threaded tests under TSan
#   make fuzz       libFuzzer on the XMCAPI frame decoder (FUZZ_TIME seconds)
#   make results    rerun every scenario into results/, plots and REPORT.md
#   make check-results  rerun every scenario and compare with the committed
#                   results/ byte for byte (part of make test)
#   make bench      run every build/bench/* into results/bench/<name>.csv
#   make osu-ref    mpi_lite/osu/ and mpi_lite/examples/ built with Debian's
#                   MPICH and Open MPI (osu_latency and osu_bw also with
#                   SimGrid's smpicc, for bench/smpi)
#                   (make test-osu-ref checks their output; part of make test)
#   make footprint  code and data bytes of mcapi_ref's layers built with -Os
#   make deps       install the Debian packages (idempotent)
#   make install PREFIX=/usr/local
#   make clean
#
# SAN=asan|tsan builds an instrumented tree (used by `make test`).

BUILD ?= build
PREFIX ?= /usr/local
SAN ?=

CC := gcc
CXX := g++
AR := ar

WARN := -Wall -Wextra -Werror
OPT ?= -O2 -g
SAN_asan := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_tsan := -fsanitize=thread
SANFLAGS := $(SAN_$(SAN))

CPPFLAGS += -Iinclude -Imcapi_ref/include -Icoro/include -Iem/include -MMD -MP
CFLAGS += -std=c11 $(WARN) $(OPT) $(SANFLAGS) -fPIC
CXXFLAGS += -std=c++17 $(WARN) $(OPT) $(SANFLAGS) -fPIC
LDFLAGS += $(SANFLAGS)
SYSTEMC_LIBS := -lsystemc
LDLIBS += -lyaml -lpthread -lm

# ---- sources -----------------------------------------------------------------

LIB_SRC := plat/plat.c $(wildcard plat/native/*.c)
# The library's layers, named: mcapi_ref/examples/ holds programs, not library code.
# transport/ is what the transports share, transport/<name>/ one transport each.
MCAPI_SRC := $(wildcard mcapi_ref/top/*.c mcapi_ref/transport/*.c mcapi_ref/transport/*/*.c \
    mcapi_ref/drivers/*.c)
# libxmcapi.a is libmcapi.a with XMCAPI added. Besides XMCAPI's objects the
# two differ in one member, data only: the table of transports that
# mcapi_ref/top/select.c chooses from, mcapi_ref/transport/transports.c
# (shared memory, DMA) in libmcapi.a, xmcapi/xm_transports.c (the same and
# XMCAPI) in libxmcapi.a. Why a table and not code: docs/mcapi.md.
XMCAPI_SRC := $(filter-out mcapi_ref/transport/transports.c,$(MCAPI_SRC)) $(wildcard xmcapi/*.c)
CORO_SRC := $(wildcard coro/*.c)
# em: the Event Machine (em/examples/ holds programs, not library code).
EM_SRC := $(wildcard em/*.c)
EXAMPLE_SRC := $(wildcard mcapi_ref/examples/*.c)
CONF_SRC := $(wildcard conf/*.cpp)
SIM_SRC := $(wildcard plat/sim/*.cpp) $(wildcard models/*.cpp) $(wildcard models/*/*.cpp) \
    $(wildcard kinds/*.cpp) $(wildcard kinds/*/*.cpp)
# apps/<paper>/ holds each paper's workloads; the app table is apps/apps.c.
# apps/hpl/ is an MPI program (its own main), built by the mpi programs block.
APPS_SRC := $(filter-out apps/hpl/%,$(wildcard apps/*.c apps/*/*.c))
RUNNER_SRC := $(wildcard runner/*.cpp)
BENCH_SRC := $(wildcard bench/*.c bench/*.cpp)
# Programs for users (build/bin/NAME from bin/NAME.c; bin/xmcli.c is shared;
# bin/mpi/ holds mpi_lite's mpirun and mpicc, built by the mpirun block).
BIN_SRC := $(filter-out bin/xmcli.c,$(wildcard bin/*.c))
# tests/common is the harness (it owns main()), linked into every test program.
TEST_DIRS := $(filter-out common,$(patsubst tests/%/,%,$(sort $(dir $(wildcard tests/*/*.c tests/*/*.cpp)))))
TEST_COMMON := $(wildcard tests/common/*.c)

obj = $(patsubst %,$(BUILD)/obj/%.o,$(basename $(1)))

# ar keys archive members by file name: two sources of one library must not
# share a base name, or one would silently replace the other.
dupes = $(strip $(foreach n,$(sort $(notdir $(basename $(1)))),\
    $(if $(filter-out 1,$(words $(filter %/$(n),$(basename $(1))))),$(n))))
$(foreach l,LIB_SRC MCAPI_SRC XMCAPI_SRC CORO_SRC EM_SRC CONF_SRC SIM_SRC APPS_SRC,$(if $(call dupes,$($(l))),\
    $(error $(l): sources share a base name: $(call dupes,$($(l))))))

LIB := $(BUILD)/lib/libipcsim.a
MCAPI_LIB := $(BUILD)/lib/libmcapi.a
XMCAPI_LIB := $(BUILD)/lib/libxmcapi.a
CORO_LIB := $(BUILD)/lib/libcoro.a
EM_LIB := $(BUILD)/lib/libem.a
CONF_LIB := $(BUILD)/lib/libipcsim_conf.a
SIM_LIB := $(BUILD)/lib/libipcsim_sim.a
APPS_LIB := $(BUILD)/lib/libipcsim_apps.a
IPCSIM := $(BUILD)/ipcsim
BENCHES := $(patsubst bench/%,$(BUILD)/bench/%,$(basename $(BENCH_SRC)))
EXAMPLES := $(patsubst mcapi_ref/examples/%,$(BUILD)/examples/%,$(basename $(EXAMPLE_SRC)))
BINS := $(patsubst bin/%.c,$(BUILD)/bin/%,$(BIN_SRC))
TESTS := $(addprefix $(BUILD)/tests/,$(TEST_DIRS))

# Everything a run needs, in link order (apps call libraries call plat).
RUN_LIBS := $(APPS_LIB) $(XMCAPI_LIB) $(CORO_LIB) $(EM_LIB) $(SIM_LIB) $(CONF_LIB) $(LIB)
RUN_LDLIBS := $(SYSTEMC_LIBS) $(LDLIBS)

.PHONY: FORCE all test test-run test-net test-ports test-slurm lint results check-results bench deps deps-ok install clean format footprint \
    fuzz fuzz-corpus
# Keep object files make considers intermediate (test objects), so nothing rebuilds twice.
.SECONDARY:
.DEFAULT_GOAL := all
all: $(LIB) $(MCAPI_LIB) $(XMCAPI_LIB) $(CORO_LIB) $(EM_LIB) $(CONF_LIB) $(SIM_LIB) $(APPS_LIB) $(IPCSIM) $(BENCHES) \
    $(EXAMPLES) $(BINS) $(TESTS)

# The transport interface, mcapi_ref/transport/mcapi_transport.h, is included
# by its name: by mcapi_ref's layers and by the transports outside mcapi_ref
# (xmcapi/). Programs, apps and tests do not see it, but for one white-box
# test of the shared-memory transport's repair (tests/mcapi/shm_repair.c).
TRANSPORT_INC := -Imcapi_ref/transport
$(BUILD)/obj/mcapi_ref/top/%.o $(BUILD)/obj/mcapi_ref/transport/%.o $(BUILD)/obj/xmcapi/%.o \
    $(BUILD)/obj/tests/mcapi/shm_repair.o: CPPFLAGS += $(TRANSPORT_INC)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c $< -o $@

$(LIB): $(call obj,$(LIB_SRC))
$(MCAPI_LIB): $(call obj,$(MCAPI_SRC))
$(XMCAPI_LIB): $(call obj,$(XMCAPI_SRC))
$(CORO_LIB): $(call obj,$(CORO_SRC))
$(EM_LIB): $(call obj,$(EM_SRC))
$(CONF_LIB): $(call obj,$(CONF_SRC))
$(SIM_LIB): $(call obj,$(SIM_SRC))
$(APPS_LIB): $(call obj,$(APPS_SRC))
$(BUILD)/lib/%.a:
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# ipcsim hashes the files a run read (runner/meta.cpp): nettle's SHA-256.
NETTLE_LIBS := $(shell pkg-config --libs nettle 2>/dev/null || echo -lnettle)
$(IPCSIM): $(call obj,$(RUNNER_SRC)) $(RUN_LIBS)
	$(CXX) $(LDFLAGS) -o $@ $(call obj,$(RUNNER_SRC)) $(RUN_LIBS) $(RUN_LDLIBS) $(NETTLE_LIBS)

# The version ipcsim reports (--version, every run's .meta.yaml): git describe
# of this tree at build time; outside a git tree the VERSION file, else
# "unknown". Checked on every make, rewritten only when it changed, so an
# unchanged version rebuilds nothing.
VERSION_H := $(BUILD)/gen/version.h
$(VERSION_H): FORCE
	@mkdir -p $(@D)
	@v=$$(git describe --always --dirty 2>/dev/null || cat VERSION 2>/dev/null || echo unknown); \
	printf '#define IPCSIM_VERSION "%s"\n' "$$v" > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/obj/runner/version.o: $(VERSION_H)
$(BUILD)/obj/runner/version.o: CPPFLAGS += -I$(BUILD)/gen
FORCE:

# C benchmarks measure the libraries natively, as a user program links them
# (no SystemC); C++ ones may start simulations (plat_run).
# bench/xmcapi.c measures XMCAPI: libxmcapi.a and the YAML layer (C++), as $(BINS).
BENCH_XM := $(BUILD)/bench/xmcapi
# bench/mpi.c runs MPI programs as processes (its rule: the OSU block below).
BENCH_MPI := $(BUILD)/bench/mpi
# bench/smpi.c runs ipcsim and SimGrid's smpirun as processes (its rule: the SMPI block below).
BENCH_SMPI := $(BUILD)/bench/smpi
# bench/em.c measures the em library: libem.a (its rule: the em block below).
BENCH_EM := $(BUILD)/bench/em
BENCH_C := $(filter-out $(BENCH_XM) $(BENCH_MPI) $(BENCH_SMPI) $(BENCH_EM),$(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c)))
BENCH_CXX := $(patsubst bench/%.cpp,$(BUILD)/bench/%,$(wildcard bench/*.cpp))
$(BENCH_C): $(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(MCAPI_LIB) $(CORO_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(MCAPI_LIB) $(CORO_LIB) $(LIB) -lpthread -lm
$(BENCH_XM): $(BUILD)/obj/bench/xmcapi.o $(XMCAPI_LIB) $(CONF_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CXX) $(LDFLAGS) -o $@ $< $(XMCAPI_LIB) $(CONF_LIB) $(LIB) $(LDLIBS)
$(BENCH_CXX): $(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(RUN_LIBS)
	@mkdir -p $(@D)
	$(CXX) $(LDFLAGS) -o $@ $< $(RUN_LIBS) $(RUN_LDLIBS)

# Stand-alone MCAPI programs: plain C on the native backend, as a user builds them.
# XMCAPI programs: libxmcapi.a (MCAPI + XMCAPI) and the YAML layer (C++).
$(BINS): $(BUILD)/bin/%: $(BUILD)/obj/bin/%.o $(BUILD)/obj/bin/xmcli.o $(XMCAPI_LIB) $(CONF_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CXX) $(LDFLAGS) -o $@ $(filter %.o,$^) $(XMCAPI_LIB) $(CONF_LIB) $(LIB) $(LDLIBS)

$(BUILD)/examples/%: $(BUILD)/obj/mcapi_ref/examples/%.o $(MCAPI_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(MCAPI_LIB) $(LIB) -lpthread

# One test program per folder of tests/ (Check).
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm)
.SECONDEXPANSION:
$(BUILD)/obj/tests/%.o: CPPFLAGS += -Itests/common
$(BUILD)/tests/%: $$(call obj,$$(wildcard tests/%/*.c tests/%/*.cpp) $(TEST_COMMON)) $(RUN_LIBS)
	@mkdir -p $(@D)
	$(CXX) $(LDFLAGS) -o $@ $(filter %.o,$^) $(RUN_LIBS) $(CHECK_LIBS) $(RUN_LDLIBS)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---- mpi_lite -----------------------------------------------------------------

# libmpi_lite.a: the light MPI (docs/mpi_lite.md), from mpi_lite/*.c and
# mpi_lite/transport/*.c (its other folders hold programs). Programs include
# mpi_lite/include/mpi.h; the test program links the library before RUN_LIBS.
MPI_SRC := $(wildcard mpi_lite/*.c mpi_lite/transport/*.c)
MPI_LIB := $(BUILD)/lib/libmpi_lite.a
$(if $(call dupes,$(MPI_SRC)),$(error MPI_SRC: sources share a base name: $(call dupes,$(MPI_SRC))))
$(MPI_LIB): $(call obj,$(MPI_SRC))
$(BUILD)/obj/mpi_lite/%.o $(BUILD)/obj/tests/mpi_lite/%.o: CPPFLAGS += -Impi_lite/include
$(BUILD)/tests/mpi_lite: $(MPI_LIB)
all: $(MPI_LIB)

# ---- MPI programs as scenario workloads -------------------------------------

# apps/mpi_lite/ runs MPI programs on a scenario's cores (docs/mpi_lite.md,
# "Programs as scenario workloads"): each program of mpi_lite/osu/ and
# mpi_lite/examples/ is compiled a second time, with apps/mpi_lite/mpisim.h
# forced in (its stdout and stderr go to the rank's capture) and its main
# renamed mpisim_main_<prog>, into libipcsim_apps.a. So everything that
# links RUN_LIBS links libmpi_lite.a too, after the apps (apps call
# libraries call plat).
MPISIM_OSU := osu_latency osu_bw osu_bibw osu_bcast osu_gather osu_util
MPISIM_EXAMPLES := hello ring pi
# apps/hpl/: the HPL-style LU (docs/mpi_lite.md, "An HPL-style LU").
MPISIM_HPL := hpl
MPISIM_OBJ := $(addprefix $(BUILD)/obj/mpisim/,$(addsuffix .o,$(MPISIM_OSU) $(MPISIM_EXAMPLES) \
    $(MPISIM_HPL)))
MPISIM_CC = $(CC) $(CPPFLAGS) -Impi_lite/include $(CFLAGS) -Dmain=mpisim_main_$* \
    -include apps/mpi_lite/mpisim.h -c $< -o $@
$(BUILD)/obj/mpisim/%.o: mpi_lite/osu/%.c apps/mpi_lite/mpisim.h
	@mkdir -p $(@D)
	$(MPISIM_CC)
$(BUILD)/obj/mpisim/%.o: mpi_lite/examples/%.c apps/mpi_lite/mpisim.h
	@mkdir -p $(@D)
	$(MPISIM_CC)
$(BUILD)/obj/mpisim/%.o: apps/hpl/%.c apps/mpi_lite/mpisim.h
	@mkdir -p $(@D)
	$(MPISIM_CC)
$(APPS_LIB): $(MPISIM_OBJ)
$(BUILD)/obj/apps/mpi_lite/%.o: CPPFLAGS += -Impi_lite/include
RUN_LIBS := $(APPS_LIB) $(MPI_LIB) $(filter-out $(APPS_LIB),$(RUN_LIBS))
$(IPCSIM) $(TESTS) $(BENCH_CXX): $(MPI_LIB)

# ---- em examples: native programs and scenario workloads -----------------------

# em/examples/ (docs/em-examples.md): each example with launch.c, as a user
# builds it (tests/em_install builds them again against the installed tree),
# into $(BUILD)/em-examples/. apps/em/ runs the same sources on a scenario's
# cores: compiled a second time with apps/mpi_lite/mpisim.h forced in (output
# to the core's capture), main renamed emsim_main_<prog> and launch (the
# native start-up) renamed emsim_launch, the simulated form in
# apps/em/em_progs.c; launch.c's per-core part serves both.
EM_EXAMPLES := hello ordered event_group
EM_EXAMPLE_BINS := $(addprefix $(BUILD)/em-examples/,$(EM_EXAMPLES))
$(BUILD)/em-examples/%: em/examples/%.c em/examples/launch.c em/examples/launch.h $(EM_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(CPPFLAGS)) $(CFLAGS) -o $@ $< em/examples/launch.c $(LDFLAGS) $(EM_LIB) $(LIB) -lpthread
all: $(EM_EXAMPLE_BINS)
EMSIM_OBJ := $(addprefix $(BUILD)/obj/emsim/,$(addsuffix .o,$(EM_EXAMPLES) launch))
EMSIM_CC = $(CC) $(CPPFLAGS) $(CFLAGS) -D_POSIX_C_SOURCE=200809L -include apps/mpi_lite/mpisim.h
$(BUILD)/obj/emsim/launch.o: em/examples/launch.c apps/mpi_lite/mpisim.h
	@mkdir -p $(@D)
	$(EMSIM_CC) -c $< -o $@
$(BUILD)/obj/emsim/%.o: em/examples/%.c apps/mpi_lite/mpisim.h
	@mkdir -p $(@D)
	$(EMSIM_CC) -Dmain=emsim_main_$* -Dlaunch=emsim_launch -c $< -o $@
$(APPS_LIB): $(EMSIM_OBJ)
$(BENCH_EM): $(BUILD)/obj/bench/em.o $(EM_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(EM_LIB) $(LIB) -lpthread -lm

# ---- mpirun and MPI programs as processes --------------------------------------

# mpirun (bin/mpi/mpirun.c): N processes of a program as one native
# job (plat/native/job.c). POSIX is allowed there: it is a tool, not library
# code. tests/mpi_procs runs it on the small MPI programs of
# tests/mpi_procs/progs/, each linked as a user's program is (libmpi_lite.a,
# libmcapi.a for mcapi_job, libipcsim.a, no SystemC) into $(BUILD)/progs/mpi_procs/.
MPIRUN := $(BUILD)/bin/mpirun
MPIRUN_SRC := bin/mpi/mpirun.c bin/mpi/hostfile.c
$(MPIRUN): $(call obj,$(MPIRUN_SRC))
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^
$(BUILD)/obj/bin/mpi/mpirun.o: $(VERSION_H)
$(BUILD)/obj/bin/mpi/mpirun.o: CPPFLAGS += -I$(BUILD)/gen
PROCS_PROGS := $(patsubst tests/mpi_procs/progs/%.c,$(BUILD)/progs/mpi_procs/%,\
    $(wildcard tests/mpi_procs/progs/*.c))
$(PROCS_PROGS): $(BUILD)/progs/mpi_procs/%: $(BUILD)/obj/tests/mpi_procs/progs/%.o $(MPI_LIB) \
    $(MCAPI_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(MPI_LIB) $(MCAPI_LIB) $(LIB) -lpthread -lm
$(BUILD)/obj/tests/mpi_procs/progs/%.o: CPPFLAGS += -Impi_lite/include
$(BUILD)/tests/mpi_procs: $(MPIRUN) $(PROCS_PROGS)
all: $(MPIRUN) $(PROCS_PROGS)

# ---- dependencies ------------------------------------------------------------

deps:
	@tools/deps.sh install

deps-ok:
	@tools/deps.sh check >/dev/null 2>&1 || tools/deps.sh install

# ---- tests -------------------------------------------------------------------

# The whole suite: lint, plain build, ASan+UBSan build, TSan on native cases.
test: deps-ok
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory fuzz
	@$(MAKE) --no-print-directory test-run
	@$(MAKE) --no-print-directory check-results
	@$(MAKE) --no-print-directory test-osu-ref
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/asan SAN=asan OPT="-O1 -g" test-run
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/tsan SAN=tsan OPT="-O1 -g" \
	    TEST_SUITES=native test-run
	@for b in $(BUILD) $(BUILD)/asan $(BUILD)/tsan; do tests/net/xmcapi.sh $$b || exit 1; done
	@for b in $(BUILD) $(BUILD)/asan; do tests/net/mpi.sh $$b || exit 1; done
	@$(MAKE) --no-print-directory test-ports
	@$(MAKE) --no-print-directory test-slurm
	@tools/run-tests.sh --total $(BUILD) $(BUILD)/asan $(BUILD)/tsan

# coro's context switch beyond the x86-64 assembly this machine runs: the
# portable fallback (a thread per coroutine), and the aarch64 assembly under
# qemu-user. Each runs coro/examples/pipeline.c on the native backend: a
# three-stage pipeline across two executors that must sum right.
PORT_SRC := coro/examples/pipeline.c $(CORO_SRC) $(LIB_SRC)
test-ports:
	@mkdir -p $(BUILD)/ports
	$(CC) -std=c11 $(WARN) -O2 -Iinclude -Icoro/include -DCORO_CTX_PORTABLE \
	    -o $(BUILD)/ports/pipeline-portable $(PORT_SRC) -lpthread -lm
	$(BUILD)/ports/pipeline-portable
	@rm -f $(BUILD)/ports/pipeline-aarch64
	@# Static for qemu; glibc warns that getaddrinfo wants its shared libraries
	@# at run time (the pipeline opens no socket): the log keeps the warning.
	aarch64-linux-gnu-gcc -std=c11 $(WARN) -O2 -Iinclude -Icoro/include -static \
	    -o $(BUILD)/ports/pipeline-aarch64 $(PORT_SRC) -lpthread -lm \
	    2> $(BUILD)/ports/aarch64.log || { cat $(BUILD)/ports/aarch64.log; exit 1; }
	qemu-aarch64 $(BUILD)/ports/pipeline-aarch64

# xmcapi-echo and xmcapi-ping as processes: loopback and network namespaces;
# mpirun's ranks on two network-namespace hosts.
test-net: all
	@tests/net/xmcapi.sh $(BUILD)
	@tests/net/mpi.sh $(BUILD)

# ipcsim sweep --slurm on a real single-node Slurm (slurmctld, slurmd and
# munged started on localhost by the script, stopped after): the job array and
# a merge after it give the committed sweep's CSV byte for byte. Needs root.
test-slurm: all
	@tests/slurm/sweep.sh $(BUILD)

# Run this tree's tests once. TEST_SUITES=native limits Check to suites whose
# name contains "native" (TSan cannot follow SystemC's coroutines).
test-run: all
	@BUILD=$(BUILD) SAN=$(SAN) TEST_SUITES=$(TEST_SUITES) tools/run-tests.sh $(TESTS)

lint:
	@tools/lint.sh

format:
	@clang-format -i $$(git ls-files -co --exclude-standard '*.c' '*.h' '*.cpp' '*.hpp')

# ---- fuzzing -----------------------------------------------------------------

# make fuzz: libFuzzer (clang) on the XMCAPI frame decoder for FUZZ_TIME
# seconds, starting from the committed seeds; fails on a crash, leak, timeout
# or broken invariant (the input is saved under $(BUILD)/fuzz/). Inputs it
# finds go to $(BUILD)/fuzz/corpus, never into the source tree.
# make fuzz-corpus rewrites the seeds (fuzz/gen_corpus.c).
FUZZ_CC ?= clang
FUZZ_TIME ?= 30
FUZZ_RUNS ?= 50000000
FUZZER := $(BUILD)/fuzz/xw_decoder
FUZZ_SEEDS := fuzz/corpus/xw_decoder

$(FUZZER): fuzz/xw_decoder.c xmcapi/wire.c xmcapi/wire.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 $(WARN) -O1 -g -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=all -o $@ fuzz/xw_decoder.c xmcapi/wire.c

fuzz: $(FUZZER)
	@mkdir -p $(BUILD)/fuzz/corpus
	@echo "fuzz: $(FUZZER) for $(FUZZ_TIME) s (log: $(BUILD)/fuzz/log)"
	@if $(FUZZER) -max_total_time=$(FUZZ_TIME) -runs=$(FUZZ_RUNS) -timeout=10 \
	    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/ \
	    $(BUILD)/fuzz/corpus $(FUZZ_SEEDS) > $(BUILD)/fuzz/log 2>&1; then \
	    grep -E '^Done|^stat::(new_units_added|peak_rss_mb)' $(BUILD)/fuzz/log; \
	else \
	    tail -n 60 $(BUILD)/fuzz/log; \
	    echo "fuzz: FAILED; the input is saved as $(BUILD)/fuzz/crash-* (or leak-, timeout-)" >&2; \
	    exit 1; \
	fi

fuzz-corpus:
	@mkdir -p $(BUILD)/fuzz $(FUZZ_SEEDS)
	$(CC) -std=c11 $(WARN) -o $(BUILD)/fuzz/gen_corpus fuzz/gen_corpus.c xmcapi/wire.c
	rm -f $(FUZZ_SEEDS)/* && $(BUILD)/fuzz/gen_corpus $(FUZZ_SEEDS)

# ---- results and benchmarks ------------------------------------------------

# A scenario with a sweep: section is run by ipcsim sweep (docs/sweeps.md):
# its result is the merged CSV and the band plot, not in REPORT.md.
SWEEPS := $(sort $(shell grep -l '^sweep:' $(wildcard scenarios/*/*.yaml) /dev/null))
SCENARIOS := $(filter-out $(SWEEPS),$(sort $(wildcard scenarios/*/*.yaml)))
RESULT_CSV := $(patsubst scenarios/%.yaml,results/%.csv,$(SCENARIOS))
SWEEP_CSV := $(patsubst scenarios/%.yaml,results/%.csv,$(SWEEPS))

# The scenarios are independent runs: RESULTS_JOBS at once (default: one per
# CPU; the longest, hpl_weak, takes about 40 s of the whole).
RESULTS_JOBS ?= $(shell nproc)
results: deps-ok
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory -j$(RESULTS_JOBS) results/REPORT.md

results/%.csv: scenarios/%.yaml $(IPCSIM) $(wildcard platforms/*.yaml)
	@mkdir -p $(@D)
	$(IPCSIM) run $< --out $(@D) --plot

$(SWEEP_CSV): results/%.csv: scenarios/%.yaml $(IPCSIM) $(wildcard platforms/*.yaml)
	@mkdir -p $(@D)
	$(IPCSIM) sweep $< --jobs 2 --out $(@D) --plot

# The golden check: simulated results are committed; a change that moves one
# says why (tools/check-results.sh prints the points that moved).
check-results: $(IPCSIM)
	@tools/check-results.sh $(IPCSIM)

results/REPORT.md: $(RESULT_CSV) $(SWEEP_CSV) $(IPCSIM)
	$(IPCSIM) report --out results $(SCENARIOS)

bench: all osu-ref
	@mkdir -p results/bench
	@for b in $(BENCHES); do \
	    echo "== $$b"; \
	    $$b > results/bench/$$(basename $$b).csv.tmp && \
	    mv results/bench/$$(basename $$b).csv.tmp results/bench/$$(basename $$b).csv && \
	    cat results/bench/$$(basename $$b).csv || exit 1; \
	done

footprint:
	@tools/footprint.sh

# ---- OSU-compatible benchmarks against Debian's MPIs ------------------------

# make osu-ref: mpi_lite/osu/'s programs built unchanged with Debian's MPICH
# and Open MPI (their mpicc.mpich, mpicc.openmpi) into
# $(BUILD)/osu-ref/{mpich,openmpi}/, as reference points for mpi_lite.
# make test-osu-ref runs tests/osu/check.sh on them: short size ranges with
# both MPIs, 2 ranks (the collectives also 4), output format and values,
# bad options (~25 s; part of make test).
OSU_PROGS := osu_latency osu_bw osu_bibw osu_bcast osu_gather
OSU_MPIS := mpich openmpi
OSU_REF := $(foreach m,$(OSU_MPIS),$(addprefix $(BUILD)/osu-ref/$(m)/,$(OSU_PROGS)))
.PHONY: osu-ref test-osu-ref
osu-ref: $(OSU_REF)
# One rule per MPI: a pattern rule with two targets would be one recipe making both.
OSU_DEPS := mpi_lite/osu/osu_util.c mpi_lite/osu/osu_util.h
OSU_CC = mpicc.$(notdir $(@D)) -std=c11 $(WARN) -O2 -o $@ $< mpi_lite/osu/osu_util.c
$(BUILD)/osu-ref/mpich/%: mpi_lite/osu/%.c $(OSU_DEPS)
	@mkdir -p $(@D)
	$(OSU_CC)
$(BUILD)/osu-ref/openmpi/%: mpi_lite/osu/%.c $(OSU_DEPS)
	@mkdir -p $(@D)
	$(OSU_CC)
# The example programs too (hello, ring, pi), with -pedantic: plain MPI C11.
OSU_EXAMPLES := $(foreach m,$(OSU_MPIS),$(addprefix $(BUILD)/osu-ref/$(m)/,$(MPISIM_EXAMPLES)))
osu-ref: $(OSU_EXAMPLES)
EXAMPLE_CC = mpicc.$(notdir $(@D)) -std=c11 $(WARN) -pedantic -O2 -o $@ $<
$(BUILD)/osu-ref/mpich/%: mpi_lite/examples/%.c
	@mkdir -p $(@D)
	$(EXAMPLE_CC)
$(BUILD)/osu-ref/openmpi/%: mpi_lite/examples/%.c
	@mkdir -p $(@D)
	$(EXAMPLE_CC)
test-osu-ref: osu-ref
	@tests/osu/check.sh $(BUILD)/osu-ref

# The same programs with mpi_lite, as the installed mpicc builds them
# (libmpi_lite.a, libipcsim.a) into $(BUILD)/osu/. bench/mpi runs them with
# $(BUILD)/bin/mpirun against $(BUILD)/osu-ref/'s (make bench builds both).
OSU_LITE := $(addprefix $(BUILD)/osu/,$(OSU_PROGS))
# An MPI program linked as the installed mpicc links it; extra sources in $(1).
MPI_LITE_CC = $(CC) -std=c11 $(WARN) -O2 $(SANFLAGS) -Impi_lite/include -o $@ $< $(1) \
    $(MPI_LIB) $(LIB) -lpthread -lm
$(OSU_LITE): $(BUILD)/osu/%: mpi_lite/osu/%.c $(OSU_DEPS) $(MPI_LIB) $(LIB)
	@mkdir -p $(@D)
	$(call MPI_LITE_CC,mpi_lite/osu/osu_util.c)
$(BENCH_MPI): $(BUILD)/obj/bench/mpi.o | $(OSU_LITE)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< -lpthread
all: $(OSU_LITE)
# mpi_lite/examples/ the same way, into $(BUILD)/mpi-examples/ (tests/net/mpi.sh
# runs them across two network-namespace hosts).
MPI_EXAMPLES_LITE := $(addprefix $(BUILD)/mpi-examples/,$(MPISIM_EXAMPLES))
$(MPI_EXAMPLES_LITE): $(BUILD)/mpi-examples/%: mpi_lite/examples/%.c $(MPI_LIB) $(LIB)
	@mkdir -p $(@D)
	$(call MPI_LITE_CC)
all: $(MPI_EXAMPLES_LITE)
# apps/hpl/hpl.c the same way: $(BUILD)/mpi-examples/hpl (tests/mpi_procs/hpl_cases.c),
# with include/ for ipcsim/plat.h (its charged mode's plat_cost, plat_work_cycles).
MPI_HPL_LITE := $(BUILD)/mpi-examples/hpl
$(MPI_HPL_LITE): apps/hpl/hpl.c include/ipcsim/plat.h $(MPI_LIB) $(LIB)
	@mkdir -p $(@D)
	$(call MPI_LITE_CC,-Iinclude)
$(BUILD)/tests/mpi_procs: $(MPI_HPL_LITE)
all: $(MPI_HPL_LITE)

# ---- the same programs on SimGrid SMPI ----------------------------------------

# make osu-ref also builds mpi_lite/osu/'s osu_latency and osu_bw unchanged
# with SimGrid's smpicc (Debian's libsimgrid-dev) into $(BUILD)/osu-ref/smpi/.
# bench/smpi (bench/smpi.c; libyaml reads a scenario's OSU arguments) runs
# them with smpirun against ipcsim's scenarios (docs/smpi.md).
OSU_SMPI := $(addprefix $(BUILD)/osu-ref/smpi/,osu_latency osu_bw)
osu-ref: $(OSU_SMPI)
$(OSU_SMPI): $(BUILD)/osu-ref/smpi/%: mpi_lite/osu/%.c $(OSU_DEPS)
	@mkdir -p $(@D)
	smpicc -std=c11 $(WARN) -O2 -o $@ $< mpi_lite/osu/osu_util.c
$(BENCH_SMPI): $(BUILD)/obj/bench/smpi.o | $(IPCSIM)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< -lyaml
# tests/smpi runs the bench on the ideal platform's scenarios, so it needs the
# smpicc programs: built with the test where smpicc is installed (make deps);
# without it `make all` still builds, and the test fails naming the package.
$(BUILD)/tests/smpi: $(BENCH_SMPI) $(if $(shell command -v smpicc 2>/dev/null),$(OSU_SMPI))

# ---- install -----------------------------------------------------------------

install: all
	@PREFIX=$(PREFIX) BUILD=$(BUILD) tools/install.sh

clean:
	rm -rf $(BUILD)
