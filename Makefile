# pmprof: GNU Makefile.
#
#   make            build build/pmprof (and the ./pmprof link)
#   make check      install missing test packages (as root; else say how),
#                   build and run every test; ends with "N passed, N failed"
#   make demo       install missing packages (as root), build, record, report
#   make bench      throughput and overhead benchmarks against perf
#   make check-lab  the arm64 lab (scripts/lab/): QEMU guests with a PMU,
#                   a kernel with the hf ABI, arm64/s390x unit tests
#   make fuzz       run the libFuzzer targets for longer (FUZZ_SECONDS each)
#   make fuzz-long  all of them for FUZZ_TOTAL seconds in all (an hour)
#   make install    PREFIX=/usr/local DESTDIR=
#
# Object lists come from the tree: every lib/<layer>/*.c goes into
# libpmprof.a, every src/*.c into the pmprof binary, every
# tests/unit/test-*.c becomes one cmocka program. Adding a file needs no
# edit here.

VERSION  := 0.1.0
PREFIX   ?= /usr/local
DESTDIR  ?=
BUILD    ?= build
CC       ?= cc
SAN      ?=
PKGS     := libelf libdw libzstd jansson libprotobuf-c zlib
# pmprof top's screen: its flags for its one file (src/top-tui.c)
TUI_PKGS := ncursesw
TEST_PKGS := cmocka
# Cross builds (scripts/lab/cross-build.sh) set PKG_CONFIG to one that
# looks in a sysroot, and STATIC=1: pmprof and the bench programs then
# link -static (the unit tests too, but for libc and cmocka, of which
# Debian ships no archive).
PKG_CONFIG ?= pkg-config
STATIC   ?=
PKG_STATIC := $(if $(STATIC),--static)
PROGRAM_LDFLAGS := $(if $(STATIC),-static)

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) $(PKG_STATIC) --libs $(PKGS) 2>/dev/null)
TUI_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(TUI_PKGS) 2>/dev/null)
TUI_LIBS   := $(shell $(PKG_CONFIG) $(PKG_STATIC) --libs $(TUI_PKGS) 2>/dev/null)
TEST_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS   := $(shell $(PKG_CONFIG) --libs $(TEST_PKGS) 2>/dev/null)

OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WARNINGS := -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers
ALL_CFLAGS := -std=gnu11 $(WARNINGS) -Iinclude -Ilib -I$(BUILD)/gen -D_GNU_SOURCE \
              -DPMPROF_VERSION='"$(VERSION)"' $(PKG_CFLAGS) $(CPPFLAGS) $(CFLAGS)
ifneq ($(SAN),)
# "undefined" leaves out float-cast-overflow (a double past the integer it
# is converted to), which the simulator's model numbers once hit.
comma      := ,
SAN_ALL    := $(SAN)$(if $(findstring undefined,$(SAN)),$(comma)float-cast-overflow)
ALL_CFLAGS += -fsanitize=$(SAN_ALL) -fno-omit-frame-pointer -fno-sanitize-recover=all
# pmprof, the unit tests and the fuzz targets; not the bench programs,
# which are workloads (a sanitized one has LeakSanitizer's extra process
# at exit and ASan's thread: other samples than the tests expect).
SAN_LDFLAGS := -fsanitize=$(SAN_ALL)
endif
LIBS     := $(PKG_LIBS) $(TUI_LIBS) -liberty -lm

LIB_SRCS  := $(sort $(wildcard lib/*/*.c))
CLI_SRCS  := $(sort $(wildcard src/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
KIT_SRCS  := $(sort $(wildcard tests/fixture/*.c))
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz-*.c))
BENCH_SRCS := $(sort $(wildcard bench/*.c))

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
# Protocol buffers (pprof's profile.proto): protoc-c writes their C into
# $(BUILD)/gen, included as "table/profile.pb-c.h", part of libpmprof.a.
PROTOC_C  ?= protoc-c
GEN       := $(BUILD)/gen
PROTO_SRCS := $(sort $(wildcard lib/*/*.proto))
PROTO_HDRS := $(PROTO_SRCS:lib/%.proto=$(GEN)/%.pb-c.h)
PROTO_OBJS := $(PROTO_SRCS:lib/%.proto=$(GEN)/%.pb-c.o)
# Assets the library writes out whole (the HTML report's script and style):
# each a C string made by scripts/embed.sh.
ASSET_SRCS := $(sort $(wildcard lib/*/*.js lib/*/*.css))
ASSET_OBJS := $(ASSET_SRCS:lib/%=$(GEN)/%.o)
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/%.o)
KIT_OBJS  := $(KIT_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)
BENCH_BINS := $(BENCH_SRCS:%.c=$(BUILD)/%)
LIBPMPROF := $(BUILD)/libpmprof.a
PMPROF    := $(BUILD)/pmprof

.PHONY: all check check-unit check-cli check-lab demo bench fuzz fuzz-long install clean deps pictures \
        accuracy tests programs fuzz-programs
all: $(PMPROF) programs
	@ln -sf $(PMPROF) pmprof

programs: $(BENCH_BINS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/src/top-tui.o: ALL_CFLAGS += $(TUI_CFLAGS)

$(GEN)/%.pb-c.c $(GEN)/%.pb-c.h: lib/%.proto
	@mkdir -p $(GEN)
	$(PROTOC_C) --proto_path=lib --c_out=$(GEN) $<

$(GEN)/%.js.c: lib/%.js scripts/embed.sh
	@mkdir -p $(dir $@)
	scripts/embed.sh $< >$@

$(GEN)/%.css.c: lib/%.css scripts/embed.sh
	@mkdir -p $(dir $@)
	scripts/embed.sh $< >$@

$(GEN)/%.o: $(GEN)/%.c
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# Generated headers exist before anything that may include them compiles.
$(LIB_OBJS) $(CLI_OBJS): | $(PROTO_HDRS)

$(LIBPMPROF): $(LIB_OBJS) $(PROTO_OBJS) $(ASSET_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(PMPROF): $(CLI_OBJS) $(LIBPMPROF)
	$(CC) $(LDFLAGS) $(SAN_LDFLAGS) $(PROGRAM_LDFLAGS) -o $@ $(CLI_OBJS) $(LIBPMPROF) $(LIBS)

# The CLI without main(), so tests can call command internals.
$(BUILD)/libpmprof-cli.a: $(filter-out $(BUILD)/src/main.o,$(CLI_OBJS))
	@rm -f $@
	ar rcs $@ $^

# Unit tests link the CLI's internals too (without main()), so a test can
# run a whole command in-process.
$(BUILD)/tests/unit/%: tests/unit/%.c $(KIT_OBJS) $(BUILD)/libpmprof-cli.a $(LIBPMPROF)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -Itests -Isrc -MMD -MP -MF $@.d -o $@ $< $(KIT_OBJS) \
	    $(BUILD)/libpmprof-cli.a $(LIBPMPROF) $(LIBS) $(TEST_LIBS) $(LDFLAGS) $(SAN_LDFLAGS)

$(BUILD)/tests/fixture/%.o: tests/fixture/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -Itests -MMD -MP -c -o $@ $<

# Bench programs are workloads: keep them plain and unoptimised away.
# -fno-plt: they call libc through the GOT, with no PLT stub of their own
# for a sample to fall in (perf 6.1 names one _init or callee@plt by the
# shape of its symbol tree: tests/tools/perf_names.py).
$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -fno-omit-frame-pointer -fno-plt -Wall -Wextra -Werror \
	    $(CFLAGS_BENCH) $(LDFLAGS) $(PROGRAM_LDFLAGS) -o $@ $< -lm -lpthread

tests: $(UNIT_BINS) $(PMPROF) $(BENCH_BINS)

# The test packages first (installed when root, else the apt-get line and
# a stop: a fresh machine has no cmocka.h), then a new make, so that the
# pkg-config flags above are read again once the packages are there.
# CHECK_FLAGS goes to tests/run.sh (--skip=NAME, PATTERN ...).
CHECK_FLAGS ?=
check:
	@scripts/deps.sh --test
	@$(MAKE) --no-print-directory tests
	@ln -sf $(PMPROF) pmprof
	@BUILD=$(BUILD) tests/run.sh $(CHECK_FLAGS)

check-unit:
	@scripts/deps.sh --test
	@$(MAKE) --no-print-directory $(UNIT_BINS)
	@BUILD=$(BUILD) tests/run.sh --unit-only $(CHECK_FLAGS)

check-cli:
	@scripts/deps.sh --test
	@$(MAKE) --no-print-directory tests
	@BUILD=$(BUILD) tests/run.sh --cli-only $(CHECK_FLAGS)

# tests/lab/0-build.sh builds the guest (kernel included: minutes, once;
# then cached in ~/.cache/pmprof-lab), the rest boot it.
check-lab:
	@scripts/deps.sh --test
	@$(MAKE) --no-print-directory tests
	@BUILD=$(BUILD) CLI_TIMEOUT=5400 tests/run.sh --lab

deps:
	scripts/deps.sh

demo:
	scripts/deps.sh --runtime
	$(MAKE) all
	scripts/demo.sh

bench: all
	BUILD=$(BUILD) bench/run.sh

accuracy: all
	BUILD=$(BUILD) scripts/accuracy.sh > docs/accuracy.md

# The docs' pictures of the HTML pages, from seeded simulated recordings
# (the same on every machine); the text examples are left in
# $(BUILD)/pictures for the README (tests/cli/pictures.sh compares them).
pictures: all
	BUILD=$(BUILD) scripts/pictures.sh $(BUILD)/pictures
	cp $(BUILD)/pictures/report-html.png $(BUILD)/pictures/metrics-html.png \
	    $(BUILD)/pictures/diff-html.png docs/images/

# libFuzzer targets, built by tests/fuzz/run.sh with CC=clang and
# SAN=fuzzer-no-link,address,undefined (the library instrumented for
# coverage; -fsanitize=fuzzer adds libFuzzer's main at link time).
FUZZ_BINS := $(FUZZ_SRCS:%.c=$(BUILD)/%)
fuzz-programs: $(FUZZ_BINS)

$(BUILD)/tests/fuzz/%: tests/fuzz/%.c $(LIBPMPROF)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIBPMPROF) $(LIBS) \
	    $(LDFLAGS) $(SAN_LDFLAGS)

FUZZ_SECONDS ?= 300
fuzz:
	BUILD=build-fuzz FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh

# On demand, before a release or after a parser change: one target after
# the other, going on after a finding; every crash, leak or hang input is
# kept in build-fuzz/fuzz-artifacts/ (copy it to tests/fuzz/corpus/ once
# fixed, so that make check runs it).
FUZZ_TOTAL ?= 3600
fuzz-long:
	BUILD=build-fuzz FUZZ_TOTAL=$(FUZZ_TOTAL) tests/fuzz/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(PMPROF) $(DESTDIR)$(PREFIX)/bin/pmprof
	for m in docs/*.1; do [ -e "$$m" ] && install -m 644 $$m \
	    $(DESTDIR)$(PREFIX)/share/man/man1/; done; true

clean:
	rm -rf build build-* pmprof

# Keep intermediate objects (the fixture kit's): make would delete them
# after the tests link, and print that after the test summary.
.SECONDARY:

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(KIT_OBJS:.o=.d) $(UNIT_BINS:=.d)
