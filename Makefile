# gridbench -- GNU make build.
#
#   make            build ./gridbench (optimised, -O2 -g1)
#   make test       build and run the Criterion suite (tests/)
#   make check      the same suite under ASan + UBSan (+ LeakSanitizer)
#   make report     the main job: bundled dataset -> results/<run-id>/ + plots
#   make bench      speed figures per solver x queue on the shared maps
#   make bench-jps  jps per query (mean, median) on AR0011SR, Berlin_0_256,
#                   divideandconquer, den312d (scripts/bench.sh --jps)
#   make bench-bounds  the same loop on two inexact timing-bound queues (build-bounds/)
#   make bench-scale   --jobs and the oracle cache, side by side (full shared set)
#   make datasets SETS="street dao"  download, check and unpack official
#                   Moving AI sets into datasets/<set>/ (datasets/fetch.sh)
#   make man        build/man/gridbench.1 and gridbench-CMD.1 (roff, from the
#                   option tables); `make install` installs them
#   make docs-man   docs/man/gridbench-CMD.md, every command's --help
#   make test-slurm a real single-node Slurm (root): 4-task array == one run
#   make test-parallel  GNU parallel shards (scripts/parallel.sh) == one run
#   make clean
#
# Objects go to $(BUILD)/ so that the sanitizer build (BUILD=build-san)
# never mixes with the optimised one.  Dependencies come from -MMD -MP.

CC      ?= cc
BUILD   ?= build
# Use every core unless told otherwise (make -jN, or make -j1 to serialise).
# Only the top-level make decides: a sub-make inherits its jobserver, and
# forcing -j there again makes it warn and leave that jobserver.
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j% j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
endif
OPT     ?= -O2
# -Wconversion (which in C includes -Wsign-conversion): every narrowing or
# sign change is written as a cast, so an unintended one shows.  The tree,
# tests and fuzz targets build without a warning under gcc and clang.
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-align -Wwrite-strings -Wformat=2 \
           -Wundef -Wvla -Wconversion
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
# -g1: line tables (profilers, sanitizer traces, backtraces) without the
# variable locations of -g, which cost 40 % of the compile time of the
# instantiated search loops (gb_bestfirst.c: 17.9 s at -O2 -g, 11.0 s at
# -g1; under the sanitizers 86 s and 38 s).  make CFLAGS="-O2 -g" for gdb.
CFLAGS  ?= $(OPT) -g1
# The tests' own code only drives the library (which keeps $(CFLAGS)):
# compiled at -Og, it builds in half the time of -O2.
TEST_CFLAGS ?= -Og -g1
TEST_HOT_CFLAGS ?= $(TEST_CFLAGS)
# The executables are linked without PIE: a position-independent one
# applies its relative relocations at every start (750,000 under the
# sanitizers), and the test suite starts thousands of processes.
LDPIE   ?= -no-pie
# -fPIC: libgridbench.a links into user plugins (shared objects) too, and
# libgridbench.so is built from the same objects.
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -fPIC $(INCS) -MMD -MP
LDLIBS  := -lm
SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# harness/ is laid out by stage, each folder using only those before it
# (scripts/check-layers.sh checks the arrows; docs/design/layout.md):
#   core  -> io -> check -> gen -> run -> report -> cli
# Headers are included by their base name, so that the installed flat
# include/gridbench/ folder serves plugins unchanged.
HARNESS_DIRS := core io check gen run report cli
INCS        := -Isolvers $(HARNESS_DIRS:%=-Iharness/%)
SOLVER_SRC  := $(wildcard solvers/*.c)
HARNESS_SRC := $(filter-out harness/cli/main.c,$(foreach d,$(HARNESS_DIRS),$(wildcard harness/$(d)/*.c)))
TEST_SRC    := $(wildcard tests/*.c)

# The trace viewer (harness/report/gb_viewer.h): an HTML page compiled in as
# a C string, generated with sed (backslash, quote and '?' escaped, the
# last so that no trigraph of -std=c11 can form).
VIEWER_HTML := harness/report/gb_trace_viewer.html
VIEWER_C    := $(BUILD)/gen/gb_viewer_html.c
LIB_OBJ  := $(SOLVER_SRC:%.c=$(BUILD)/%.o) $(HARNESS_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/gb_viewer_html.o
MAIN_OBJ := $(BUILD)/harness/cli/main.o
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libgridbench.a
SOLIB    := $(BUILD)/libgridbench.so
BIN      := $(BUILD)/gridbench
TESTBIN  := $(BUILD)/gridbench-tests

# Tests find the shared Moving AI copies and the binary through these.
GB_SHARED ?= $(abspath ../shared/movingai)
TEST_JOBS ?= 2
GB_TEST_FULL ?= 0

.PHONY: install-files
.PHONY: all test test-full bench-scale check check-leak check-cli report bench bench-jps bench-bounds datasets clean install examples man docs-man \
        test-slurm test-parallel FORCE
all: gridbench

gridbench: $(BIN)
	ln -sf $(BIN) gridbench

# the formatting of the lines changed since FORMAT_BASE (.clang-format; the
# rest of the tree keeps its layout): scripts/format-check.sh, --fix to
# rewrite them.  Unset, the script takes the commit in .ci/format-base, the
# main that last landed (moved forward when a new one lands), as CI does,
# so every line changed since is checked.
FORMAT_BASE ?=
.PHONY: format-check
format-check:
	@./scripts/format-check.sh $(FORMAT_BASE)

# the include arrows point one way, and no two files call each other
# (scripts/check-layers.sh; the calls are read from the objects)
.PHONY: layers
layers: $(LIB_OBJ)
	@./scripts/check-layers.sh . $(BUILD)

# Every object depends on the compiler and its flags: $(BUILD)/cc.stamp is
# rewritten only when they change, so a build dir switched to another
# compiler (make check SAN_CC=gcc after a clang build) is rebuilt whole,
# never a mix of the two.
# Its text is fixed when the Makefile is read (:=), not in the recipe,
# where a test object's own CFLAGS (-Og) would leak in through make's
# inheritance of target-specific variables and flip the stamp.
CC_STAMP := $(BUILD)/cc.stamp
CC_STAMP_TEXT := $(CC) $(CSTD) $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) | tests: $(TEST_CFLAGS) | $(TEST_HOT_CFLAGS)
$(CC_STAMP): FORCE
	@mkdir -p $(BUILD)
	@printf '%s\n' '$(CC_STAMP_TEXT)' > $@.new.$$$$ && \
	if cmp -s $@.new.$$$$ $@; then rm -f $@.new.$$$$; else mv -f $@.new.$$$$ $@; fi

$(BUILD)/%.o: %.c $(CC_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(EXTRA_DEFS) -c $< -o $@
$(TEST_OBJ) $(BUILD)/tests/selftest/leak_fails.o: CFLAGS = $(TEST_CFLAGS)
# These tests instantiate the library's queues (gb_pq_*.h) in their own
# code and time nothing, but drive them millions of times: they keep the
# library's optimisation when make check builds the other tests at -O0.
TEST_HOT_OBJ := $(BUILD)/tests/test_pq.o $(BUILD)/tests/test_exact.o
$(TEST_HOT_OBJ): CFLAGS = $(TEST_HOT_CFLAGS)

# The environment record (gridbench env, env.json) names the build:
# $(BUILD)/buildinfo.h is rewritten only when the commit or the flags
# change, so an unchanged tree never relinks.
GIT_COMMIT := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
BUILDINFO := $(BUILD)/buildinfo.h
$(BUILDINFO): FORCE
	@mkdir -p $(BUILD)
	@printf '#define GB_BUILD_CFLAGS "%s"\n#define GB_BUILD_COMMIT "%s"\n' \
	  '$(CC) $(CFLAGS) $(EXTRA_CFLAGS)' '$(GIT_COMMIT)' > $@.new.$$$$ && \
	if cmp -s $@.new.$$$$ $@; then rm -f $@.new.$$$$; else mv -f $@.new.$$$$ $@; fi
$(BUILD)/harness/run/gb_env.o: $(BUILDINFO)
$(BUILD)/harness/run/gb_env.o: EXTRA_DEFS = -include $(BUILDINFO)
$(BUILD)/harness/cli/main.o: EXTRA_DEFS = -DGB_VERSION='"$(VERSION)"'
$(BUILD)/harness/cli/main.o: Makefile
FORCE:

$(VIEWER_C): $(VIEWER_HTML)
	@mkdir -p $(dir $@)
	@{ printf '/* generated from %s by the Makefile: do not edit */\n#include "gb_viewer.h"\nconst char gb_viewer_html[] =\n' '$<'; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@.tmp && mv -f $@.tmp $@
$(BUILD)/gen/gb_viewer_html.o: $(VIEWER_C) $(CC_STAMP)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The binary holds the whole library and exports it (-rdynamic), so a
# --plugin can call any gb_* function of the public headers.
$(BIN): $(MAIN_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(LDPIE) -rdynamic -o $@ $(MAIN_OBJ) -Wl,--whole-archive $(LIB) \
	  -Wl,--no-whole-archive $(LDLIBS) -ldl

$(SOLIB): $(LIB_OBJ)
	$(CC) $(CFLAGS) $(EXTRA_CFLAGS) -shared -o $@ $^ $(LDLIBS)

# The test binary exports the library like $(BIN) does, so a plugin a test
# loads in-process (a GPPC entry calls gb_gppc_* and gb_sha256_*) links.
$(TESTBIN): $(TEST_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(LDPIE) -rdynamic -o $@ $(TEST_OBJ) -Wl,--whole-archive $(LIB) \
	  -Wl,--no-whole-archive -lcriterion $(LDLIBS) -ldl

# The tests' python3 (the reference clients of the external-solver
# protocol, a few one-liners) is Debian's, which scripts/deps.sh installs,
# ahead of a version manager's shim on PATH: pyenv's shim takes 0.28 s of
# CPU a start on the project's VM, /usr/bin/python3 0.02 s, and make test
# starts it 26 times.  Without /usr/bin/python3, PATH decides.
TEST_PYDIR := $(BUILD)/test-bin
.PHONY: test-python
test-python:
	@mkdir -p $(TEST_PYDIR); if [ -x /usr/bin/python3 ]; then ln -sfn /usr/bin/python3 $(TEST_PYDIR)/python3; \
	else rm -f $(TEST_PYDIR)/python3; fi

# The tests' oracle cache starts empty in $(BUILD)/test-cache, so every
# `make test` runs the Dijkstra oracle for real and never reads a user's cache.
test: $(TESTBIN) $(BIN) $(SOLIB) layers test-python
	rm -rf $(BUILD)/test-cache
	PATH=$(abspath $(TEST_PYDIR)):$$PATH \
	GB_SHARED=$(GB_SHARED) GB_BIN=$(abspath $(BIN)) LC_ALL=C XDG_CACHE_HOME=$(abspath $(BUILD))/test-cache \
	  GB_BUILD_DIR=$(BUILD) GB_BUILD_PLAIN=$(if $(strip $(EXTRA_CFLAGS)),0,1) \
	  GB_TEST_FULL=$(GB_TEST_FULL) ./scripts/run-tests.sh $(TESTBIN) $(TEST_JOBS) $(TEST_ARGS)

# make test-full: what `make test` samples or leaves out, in full (CI
# runs it): the real-map tests on every query of every shared scenario
# file, every allocation of the allocation-failure sweeps, and the
# end-to-end runs of scripts/report.sh (GB_TEST_E2E in tests/gb_test.h).
# One Criterion filter (suite/test glob) per entry.  cpd's full proof
# (its table on Berlin_0_256 takes minutes to build) is left to
# `make test-full FULL_FILTERS=cpd/*`.
FULL_FILTERS ?= shared/* subgoal_shared/* subgoal/random_* subgoal/allocation_* jpsplus/* anya/* aaterrain/* alloc/* resume/report_script_* \
  shard/report_script_* safety/report_script_exit_status_* report_browser/* report_e2e/*
# All of them in one Criterion run (an extglob @(a|b|...)), so that its two
# workers stay busy to the end instead of waiting at the tail of each.
gb_empty :=
gb_space := $(gb_empty) $(gb_empty)
FULL_FILTER = @($(subst $(gb_space),|,$(strip $(FULL_FILTERS))))
test-full: $(TESTBIN) $(BIN)
	$(MAKE) --no-print-directory test GB_TEST_FULL=1 TEST_ARGS="--filter '$(FULL_FILTER)'"

# make check: the whole suite, the leak self-test and a CLI run over every
# shared scenario (a sample of each), all under ASan + UBSan + LeakSanitizer.
# Built with clang (SAN_CC; Debian clang and libclang-rt-14-dev), while the
# plain build is gcc's, so both compilers build and test the tree.  clang's
# UBSan checks more (a NULL + 0 in gb_aaoracle.c that gcc's passed), and
# its processes start cheaper: gcc's ASan instruments UBSan's own check
# records as globals, which made .data 15 MB that LeakSanitizer scans at
# every exit (the test suite: 429 s of CPU with gcc, 364 s with clang).
# fuzz-smoke links the same solver objects.
# The tests' own code is built at -O0 there (SAN_TEST_CFLAGS): it only
# drives the library, which keeps -O1, and builds in a quarter of the CPU
# time of -Og.  The two that run the queues' inline code in a loop of
# their own (TEST_HOT_OBJ) keep -O1.  The leak self-test is built at -O0
# too, so it proves the in-test leak check there (gb_test_scrub in
# tests/gb_test.h).
# -Werror: the tree builds without a warning under clang too (the plain
# build is gcc's), and this is where that is checked.
# A recipe line that runs $(SAN_MAKE) starts with +: make sees no $(MAKE)
# in it and would not share its jobserver, building one file at a time.
SAN_CC    ?= clang
SAN_BUILD ?= build-san
SAN_TEST_CFLAGS ?= -O0 -g1
SAN_MAKE   = $(MAKE) BUILD=$(SAN_BUILD) CC=$(SAN_CC) OPT=-O1 EXTRA_CFLAGS="$(SAN) -Werror" TEST_CFLAGS="$(SAN_TEST_CFLAGS)" TEST_HOT_CFLAGS="-O1 -g1"
check: san-cc
	+$(SAN_MAKE) test check-leak check-cli ASAN_OPTIONS=detect_leaks=1:malloc_fill_byte=16

.PHONY: san-cc
san-cc:
	@command -v $(SAN_CC) >/dev/null 2>&1 || { echo "check: expected the compiler $(SAN_CC), found none: install clang and libclang-rt-14-dev (./scripts/deps.sh clang libclang-rt-14-dev), or make check SAN_CC=gcc"; exit 69; }

# The leak self-test must fail exactly its leaking test (tests/gb_test.h):
# it proves that a leak inside a Criterion test fails it.
LEAKTEST := $(BUILD)/leak-selftest
$(LEAKTEST): $(BUILD)/tests/selftest/leak_fails.o
	$(CC) $(CFLAGS) $(EXTRA_CFLAGS) -o $@ $^ -lcriterion $(LDLIBS)
check-leak: $(LEAKTEST)
	@LC_ALL=C $(LEAKTEST) >$(BUILD)/leak-selftest.log 2>&1; rc=$$?; \
	if [ $$rc -ne 0 ] && grep -q 'Tested: 2 | Passing: 1 | Failing: 1' $(BUILD)/leak-selftest.log \
	   && grep -q 'LeakSanitizer: the test leaked memory' $(BUILD)/leak-selftest.log; then \
	  echo "check-leak: a leaking test fails (as it must)"; \
	else cat $(BUILD)/leak-selftest.log; echo "check-leak: expected the leaking test to fail (exit $$rc)"; exit 1; fi

# Every scenario file under $(GB_SHARED), 4 to 7 queries each (--sample 4:
# every k-th, from every bucket), every solver on
# every queue (skipped when the shared data is absent).
CHECK_CLI_ARGS ?= --solver all --queue all --sample 4 --quiet --no-oracle-cache --jobs 2
check-cli: $(BIN)
	@scens=$$(ls $(GB_SHARED)/*/*.scen 2>/dev/null); \
	if [ -z "$$scens" ]; then echo "check-cli: no scenarios in $(GB_SHARED), skipped"; exit 0; fi; \
	LC_ALL=C $(BIN) run $(CHECK_CLI_ARGS) --out $(BUILD)/check-cli.csv $$scens && \
	echo "check-cli: $$(($$(wc -l <$(BUILD)/check-cli.csv) - 1)) rows, no failures"

# make report JOBS=N: N worker processes for gridbench run.
# The build runs first with one compiler per core and its lines in
# $(BUILD)/build.log: one summary line, or the whole log when it fails.
NPROC := $(shell nproc 2>/dev/null || echo 2)
report:
	@mkdir -p $(BUILD); \
	if $(MAKE) --no-print-directory $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(NPROC)) gridbench >$(BUILD)/build.log 2>&1; then \
	  echo "make report: gridbench built ($(NPROC) cores, $$(grep -cE '^[^ ]+:[0-9]+:[0-9]+: warning:' $(BUILD)/build.log) compiler warnings; compiler lines in $(BUILD)/build.log)"; \
	else cat $(BUILD)/build.log; echo "make report: the build failed (its log is above and in $(BUILD)/build.log)"; exit 2; fi
	./scripts/report.sh $(if $(JOBS),--jobs $(JOBS)) $(REPORT_ARGS)

bench: gridbench
	./scripts/bench.sh $(BENCH_ARGS)

bench-jps: gridbench
	./scripts/bench.sh --jps $(BENCH_ARGS)

# --jobs and the oracle cache side by side (scripts/bench-scale.sh), by
# default on every query of every shared scenario file
SCALE_ARGS ?= $(wildcard $(GB_SHARED)/*/*.scen)
bench-scale: gridbench
	./scripts/bench-scale.sh $(SCALE_ARGS)

# Dijkstra on the timing-bound queues of solvers/gb_pq_bound.h (not exact,
# built only here, in build-bounds/) side by side with bucket and bheap:
# how fast the search loop can go when the queue does (almost) nothing.
bench-bounds:
	$(MAKE) BUILD=build-bounds EXTRA_CFLAGS=-DGB_BOUND_QUEUES build-bounds/gridbench
	./scripts/bench.sh --bounds $(BENCH_ARGS)

# Beyond one machine (scripts/slurm/, scripts/parallel.sh): the shards of a
# run, merged, must equal the unsharded run (timing columns aside).
# test-slurm installs slurm-wlm + munge and starts slurmctld, slurmd and
# munged on this host (root, no systemd), all torn down at the end.
test-slurm: gridbench
	./scripts/test-slurm.sh
test-parallel: gridbench
	./scripts/test-parallel.sh

# SETS: names from datasets/sets.tsv, or all; FETCH_ARGS: e.g. --base URL
# (a mirror), --force.  The archive hashes go to datasets/sets.lock.
SETS ?=
datasets:
	./datasets/fetch.sh $(FETCH_ARGS) $(SETS)

# ---- man pages: gridbench(1) and gridbench-CMD(1) from the option tables --
# `gridbench man` lists the commands that have a page (harness/cli/gb_opt.h);
# each page is written to a temporary file and renamed.  Their date is the
# last commit's (SOURCE_DATE_EPOCH), so the same tree writes the same bytes.
MANDIR := $(BUILD)/man
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null)
man: $(BIN)
	@mkdir -p $(MANDIR)
	@rm -f $(MANDIR)/*.1
	@export SOURCE_DATE_EPOCH='$(SOURCE_DATE_EPOCH)'; \
	$(BIN) man gridbench > $(MANDIR)/gridbench.1.tmp && mv $(MANDIR)/gridbench.1.tmp $(MANDIR)/gridbench.1 && \
	cmds=$$($(BIN) man) && for c in $$cmds; do \
	  $(BIN) man $$c > $(MANDIR)/gridbench-$$c.1.tmp && mv $(MANDIR)/gridbench-$$c.1.tmp $(MANDIR)/gridbench-$$c.1 \
	  || exit 1; \
	done && echo "man: $(MANDIR)/gridbench.1 and $$(echo $$cmds | wc -w) command pages"

# docs/man/: every command's --help as a markdown page, so a reader sees
# every option and default without building (scripts/docs-man.sh; the opt
# suite fails when a table changed and the pages were not rewritten).
.PHONY: docs-man
docs-man: $(BIN)
	./scripts/docs-man.sh $(BIN)

# ---- library install (pkg-config) and the examples built against it ------
# The public headers: what plugins (gb_user.h), library users (gb_search.h,
# gb_run.h, gb_cmd.h) and GPPC entries' driver (gb_gppc.h) include, and the
# headers those include -- never the queue implementations (gb_pq_*.h) or
# the search core (gb_family.h).  tests/test_cli.c checks that the
# installed set compiles on its own.
PUBLIC_HEADERS := $(addprefix solvers/,gb_alloc.h gb_grid.h gb_search.h gb_heuristic.h \
                    gb_queue_kind.h gb_dijkstra.h gb_exact.h gb_landmarks.h) \
                  $(addprefix harness/core/,gb_diag.h gb_status.h) \
                  $(addprefix harness/check/,gb_validate.h) \
                  $(addprefix harness/io/,gb_map.h gb_scen.h) \
                  $(addprefix harness/run/,gb_user.h gb_run.h gb_run_opts.h gb_gppc.h) \
                  $(addprefix harness/cli/,gb_cmd.h gb_opt.h)
PREFIX  ?= /usr/local
VERSION := 0.2.0
# install-files copies what is built and builds nothing (the test of the
# installed library uses it, so it never relinks the binary under test);
# the man pages go along when `make man` wrote them, as `make install` does.
install: $(LIB) $(SOLIB) $(BIN) man
	@$(MAKE) --no-print-directory install-files
install-files:
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/gridbench \
	  $(DESTDIR)$(PREFIX)/bin
	@if [ -n "$$(ls $(MANDIR)/*.1 2>/dev/null)" ]; then \
	  echo "install -m 644 $(MANDIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/"; \
	  install -d $(DESTDIR)$(PREFIX)/share/man/man1 && \
	  install -m 644 $(MANDIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/; fi
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SOLIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(PREFIX)/include/gridbench/
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/share/gridbench/plots
	install -m 644 plots/*.gp $(DESTDIR)$(PREFIX)/share/gridbench/plots/
	install -d $(DESTDIR)$(PREFIX)/share/gridbench/gppc
	install -m 644 harness/run/gppc/gb_gppc_driver.cpp harness/run/gppc/gb_gppc_dyn_driver.cpp \
		harness/run/gppc/gb_gppc_plugin.h $(DESTDIR)$(PREFIX)/share/gridbench/gppc/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' gridbench.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/gridbench.pc

# `make examples PREFIX=DIR` builds examples/ against the library installed
# in DIR (run `make install PREFIX=DIR` first), through pkg-config only.
EXDIR ?= build/examples
examples:
	@mkdir -p $(EXDIR)
	PKG_CONFIG_PATH=$(PREFIX)/lib/pkgconfig:$$PKG_CONFIG_PATH; export PKG_CONFIG_PATH; \
	$(CC) -O2 -Wall -Wextra $$(pkg-config --cflags gridbench) examples/my_solver.c \
	  -o $(EXDIR)/my_solver $$(pkg-config --libs gridbench) && \
	$(CC) -O2 -Wall -Wextra -shared -fPIC $$(pkg-config --cflags gridbench) examples/plugin.c \
	  -o $(EXDIR)/libuserdijkstra.so && \
	$(CC) -O2 -Wall -Wextra examples/solver.c -o $(EXDIR)/solver

clean:
	rm -rf build $(SAN_BUILD) build-bounds gridbench

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/tests/selftest/leak_fails.d

# ---- fuzzing: libFuzzer targets under clang (fuzz/README.md) -------------
#   make fuzz        build fuzz/fuzz_*.c and run each for FUZZ_SECONDS
#   make fuzz-smoke  the same for 10 s per target (CI)
# The library sources are compiled again with clang and the sanitizers,
# not taken from the gcc-built archive.  Crashes land in
# fuzz/regressions/<target>/, which `make test` replays.
FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := map scen solve journal dyn merge
# -gline-tables-only: a sanitizer report or a crash still names file and
# line; the variable locations of -g cost 18 % of the build (gb_bestfirst.c:
# 88 s of CPU with -g, 72 s without) and no fuzzing run reads them.
FUZZ_FLAGS   := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -gline-tables-only -O1
# Every solver (fuzz_solve runs them all), and the harness code some target
# calls.  Not gb_terrain.c: no target builds a grid with terrain costs, so
# the instantiated loops for such grids (gb_bestfirst_w.c, gb_bidir_w.c:
# 104 of the 316 s of CPU this build took) are left out too, their tables
# replaced by stubs that abort (fuzz/noterrain.c).  A target that
# starts to use terrain fails to link, and then needs all three back.
FUZZ_NO_TERRAIN := solvers/gb_terrain.c solvers/gb_bestfirst_w.c solvers/gb_bidir_w.c
FUZZ_LIB_SRC := $(filter-out $(FUZZ_NO_TERRAIN),$(SOLVER_SRC)) fuzz/noterrain.c \
                harness/core/gb_diag.c harness/io/gb_map.c harness/io/gb_scen.c \
                harness/check/gb_validate.c harness/check/gb_anyangle.c harness/io/gb_journal.c \
                harness/core/gb_status.c harness/io/gb_dynscen.c harness/run/gb_dynreplay.c \
                harness/io/gb_shard.c harness/io/gb_rows.c harness/core/gb_csv.c \
                harness/core/gb_sha256.c
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
# FUZZ_SOLVERS_FROM=DIR (fuzz-smoke): take every solver, terrain included,
# from the sanitizer build in DIR (make check's, same compiler and
# sanitizers, no coverage counters), and compile only the harness code for
# coverage.  The fuzzers then steer by the loaders' and the targets'
# coverage alone, which a 10 s run needs, and the build is the harness's:
# the solvers' instantiated loops were most of its CPU (about 200 s).
ifneq ($(FUZZ_SOLVERS_FROM),)
FUZZ_LIB_OBJ := $(filter-out $(SOLVER_SRC:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_BUILD)/fuzz/noterrain.o,$(FUZZ_LIB_OBJ)) \
                $(SOLVER_SRC:%.c=$(FUZZ_SOLVERS_FROM)/%.o)
endif
# The targets link the library as an archive, so each holds only the
# objects it calls: fuzz_map then has 1,058 coverage counters instead of
# 132,000, which libFuzzer scans after every input (3x the executions in
# the same 10 s); the solvers stay in solve and dyn.
FUZZ_LIB     := $(FUZZ_BUILD)/libgridbench-fuzz.a
# Why not one sanitizer build for `make check` and the fuzz targets (clang,
# -fsanitize=fuzzer-no-link,address,undefined)?  The coverage it adds
# (counters, a call per comparison) makes the solvers 2.6x slower under
# ASan + UBSan (the solve corpus: 1.5 s of CPU against 0.6 s), and the
# check suite and check-cli are mostly solver runs: it would lose more in
# running than the ~200 s of CPU this build costs.
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)

.PHONY: fuzz fuzz-smoke
.SECONDARY: $(FUZZ_LIB_OBJ) $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz/fuzz_%.o)
$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CSTD) $(WARN) $(FUZZ_FLAGS) $(INCS) -MMD -MP -c $< -o $@

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/fuzz/fuzz_%.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(LDLIBS)

fuzz: $(FUZZ_BINS)
	GB_SHARED=$(GB_SHARED) ./fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# 10 s per target, linked against make check's solver objects when the
# compilers agree (built first if make check has not run), else the whole
# fuzz build.
fuzz-smoke:
ifeq ($(SAN_CC),$(FUZZ_CC))
	+$(SAN_MAKE) $(SOLVER_SRC:%.c=$(SAN_BUILD)/%.o)
	$(MAKE) fuzz FUZZ_SECONDS=10 FUZZ_BUILD=build/fuzz-smoke FUZZ_SOLVERS_FROM=$(SAN_BUILD)
else
	$(MAKE) fuzz FUZZ_SECONDS=10
endif

# the fuzz objects follow their headers too (a struct that changed size
# must not meet an object compiled against the old one)
-include $(filter $(FUZZ_BUILD)/%,$(FUZZ_LIB_OBJ:.o=.d)) $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz/fuzz_%.d)
