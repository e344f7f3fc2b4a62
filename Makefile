# SPDX-License-Identifier: GPL-2.0
# kplug: build one kplug.so for the compiler in CC.
#
#   make                  build kplug.so (and tools) for $(CC)
#   make CC=gcc-11        build for another GCC (cross compilers too)
#   make install          copy kplug.so into $(CC)'s plugin directory
#   make deps             apt-get install what the build and tests need
#   make check            the whole test suite (ends with "N passed, N failed")

CC		?= gcc
ifeq ($(origin CC),default)
CC		:= gcc
endif
CXX		?= g++
HOSTCC		?= gcc
KPLUG_SRCDIR	:= $(CURDIR)

GCC_MAJOR	:= $(shell $(CC) -dumpversion 2>/dev/null | cut -d. -f1)
GCC_TARGET	:= $(shell $(CC) -dumpmachine 2>/dev/null)
HOST_TARGET	:= $(shell $(HOSTCC) -dumpmachine 2>/dev/null)
PLUGIN_DIR	:= $(shell $(CC) -print-file-name=plugin 2>/dev/null)
ifeq ($(GCC_TARGET),$(HOST_TARGET))
PLUGIN_PKG	:= gcc-$(GCC_MAJOR)-plugin-dev
else
PLUGIN_PKG	:= gcc-$(GCC_MAJOR)-plugin-dev-$(GCC_TARGET)
endif
INIH_LIB	:= $(shell $(CXX) -print-file-name=libinih.a 2>/dev/null)

DEPS_PKGS	:= g++ make libinih-dev gcc-12-plugin-dev gcc-11 gcc-11-plugin-dev \
		   gcc-aarch64-linux-gnu gcc-12-plugin-dev-aarch64-linux-gnu \
		   gcc-arm-linux-gnueabi gcc-12-plugin-dev-arm-linux-gnueabi \
		   gcc-12-source linux-source-6.1 linux-source-6.12 \
		   qemu-system-x86 flex bison bc libelf-dev libssl-dev cpio \
		   xz-utils perl python3 valgrind binutils clang rsync kmod time

PLUGIN_CXXFLAGS	:= -fPIC -fno-rtti -fno-exceptions -fasynchronous-unwind-tables \
		   -std=gnu++11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
		   -Wno-missing-field-initializers \
		   -I$(PLUGIN_DIR)/include -I. \
		   -DKPLUG_SRCDIR='"$(KPLUG_SRCDIR)"'
# Linked with the C driver: operator new/delete resolve to cc1's own (cc1
# exports them), so loading kplug does not map libstdc++.so into every cc1.
PLUGIN_LD	?= $(patsubst %g++,%gcc,$(CXX))
PLUGIN_LDFLAGS	:= -shared -Wl,--exclude-libs,ALL

PASS_SRCS	:= $(sort $(wildcard passes/*.c))
COMPAT_SRCS	:= $(sort $(wildcard compat/*.c))
CONFIG_SRCS	:= config/kplug-config.c $(filter-out config/kplug-config.c,$(sort $(wildcard config/*.c)))
PLUGIN_SRCS	:= kplug.c $(PASS_SRCS) $(COMPAT_SRCS) $(CONFIG_SRCS)
BUILD		:= build/gcc-$(GCC_MAJOR)-$(GCC_TARGET)
PLUGIN_OBJS	:= $(PLUGIN_SRCS:%.c=$(BUILD)/%.o)
HEADERS		:= $(wildcard *.h passes/*.h compat/*.h config/*.h)

TOOLS		:= $(patsubst tools/%.c,tools/%,$(wildcard tools/*.c))

.PHONY: FORCE all plugin tools install uninstall deps ensure-deps check check-quick check-kernel clean prereqs example torture fuzz

all: plugin tools

prereqs:
	@command -v $(CXX) >/dev/null 2>&1 || { echo "kplug: $(CXX) not found: apt-get install g++ (or: make deps)" >&2; exit 1; }
	@command -v $(CC) >/dev/null 2>&1 || { echo "kplug: compiler '$(CC)' not found: apt-get install $(if $(GCC_MAJOR),gcc-$(GCC_MAJOR),$(CC)) (or: make deps)" >&2; exit 1; }
	@test -f "$(PLUGIN_DIR)/include/plugin-version.h" || { echo "kplug: no GCC plugin headers for $(CC) in $(PLUGIN_DIR)/include: apt-get install $(PLUGIN_PKG) (or: make deps)" >&2; exit 1; }
	@test -f "$(INIH_LIB)" || { echo "kplug: static inih library (libinih.a) not found: apt-get install libinih-dev (or: make deps)" >&2; exit 1; }

# KPLUG_SO names the output; relink when it was last linked for another CC.
KPLUG_SO	?= kplug.so
LAST_BUILD	:= $(shell cat $(KPLUG_SO).build 2>/dev/null)
ifneq ($(LAST_BUILD),$(BUILD))
RELINK		:= FORCE
endif

plugin: $(KPLUG_SO)

$(KPLUG_SO): $(PLUGIN_OBJS) $(RELINK) | prereqs
	@mkdir -p $(dir $@)
	$(PLUGIN_LD) $(PLUGIN_LDFLAGS) -o $@ $(PLUGIN_OBJS) $(INIH_LIB)
	@echo "$(BUILD)" > $@.build

FORCE:

# Every undefined symbol of the GCC-facing objects is made weak: loaded into
# another GCC, kplug.so then still loads and its version check can name both
# compilers, instead of dlopen() failing on the first GCC symbol that moved.
# (config/ uses only libc and inih; a weak reference would not pull inih's
# archive member in, so those objects are left alone.)
$(BUILD)/%.o: %.c $(HEADERS) Makefile | prereqs
	@mkdir -p $(dir $@)
	$(CXX) $(PLUGIN_CXXFLAGS) -x c++ -c -o $@.raw $<
	@if [ "$(filter config/%,$<)" ]; then mv $@.raw $@; else \
		nm -u $@.raw | awk '{ print $$2 }' > $@.undef && \
		objcopy --weaken-symbols=$@.undef $@.raw $@ && rm -f $@.raw $@.undef; fi

# Host tools are plain C and need no GCC headers.
tools: $(TOOLS)

tools/%: tools/%.c
	$(HOSTCC) -O2 -g -Wall -Wextra -o $@ $< -lm

install: $(KPLUG_SO)
	install -D -m 0644 $(KPLUG_SO) $(DESTDIR)$(PLUGIN_DIR)/kplug.so

uninstall:
	rm -f $(DESTDIR)$(PLUGIN_DIR)/kplug.so

deps:
	@tools/ensure-deps --force $(DEPS_PKGS)

# Install what is missing (apt-get update first), then build.
ensure-deps:
	@tools/ensure-deps $(DEPS_PKGS)

check: ensure-deps
	@$(MAKE) --no-print-directory all
	perl tests/harness.pl tests/*.t

# Everything but the long kernel and corpus tests.
check-quick: ensure-deps
	@$(MAKE) --no-print-directory all
	KPLUG_QUICK=1 perl tests/harness.pl tests/*.t

# Only the kernel tests (tests/5*): kbuild integration, builds, KCOV boot.
check-kernel: ensure-deps
	@$(MAKE) --no-print-directory all
	perl tests/harness.pl tests/5*-kernel*.t

# The bundled example: complexity report and sancov coverage.
example: ensure-deps
	@$(MAKE) --no-print-directory all
	example/run.sh

clean:
	rm -rf build kplug.so kplug.so.build $(TOOLS)

# Hardening (docs/hardening.md).  torture: GCC's C torture suite with every
# kplug pass on, a seeded sample per level (-O0 -O1 -O2 -Os -O3, -g
# -fcompare-debug), on GCC 12 and GCC 11; fails on any ICE, compare-debug or
# kplug-only failure.  fuzz: each libFuzzer harness for FUZZ_SECONDS.
TORTURE_SAMPLE	?= 1200
TORTURE_SAMPLE11 ?= 600
FUZZ_SECONDS	?= 600

torture: all
	tests/torture.sh --sample $(TORTURE_SAMPLE) --seed 1
	$(MAKE) --no-print-directory CC=gcc-11 KPLUG_SO=build/gcc11/kplug.so plugin
	tests/torture.sh --cc gcc-11 --plugin build/gcc11/kplug.so --sample $(TORTURE_SAMPLE11) --seed 2

fuzz:
	$(MAKE) -C tests/fuzz run SECONDS=$(FUZZ_SECONDS)
