# SPDX-License-Identifier: GPL-2.0
# kplug: build one kplug.so for the compiler in CC.
#
#   make                  build kplug.so (and tools) for $(CC)
#   make CC=gcc-11        build for another GCC (cross compilers too)
#   make install          copy kplug.so into $(CC)'s plugin directory
#   make deb              Debian packages gcc-N-kplug (this distribution's GCCs), kplug-tools
#   make man              the man pages kplug(7), kplug-report(1), kplug-kbuild(1)
#   make deps             apt-get install what the build and tests need
#   make check            the whole test suite (ends with "N passed, N failed, N skipped")

CC		?= gcc
ifeq ($(origin CC),default)
CC		:= gcc
endif
KPLUG_SRCDIR	:= $(CURDIR)

GCC_MAJOR	:= $(shell $(CC) -dumpversion 2>/dev/null | cut -d. -f1)
GCC_TARGET	:= $(shell $(CC) -dumpmachine 2>/dev/null)
# The host compilers come from CC unless given: CC=gcc-14 (or a cross
# aarch64-linux-gnu-gcc-14) builds the plugin with g++-14 and the host
# tools with gcc-14, so "make CC=gcc-N" works where only gcc-N and g++-N
# are installed.  A CC without a version suffix means g++ and gcc.
CC_SUFFIX	:= $(shell echo '$(notdir $(lastword $(CC)))' | sed -n 's/.*gcc\(-[0-9][0-9.]*\)$$/\1/p')
ifneq ($(filter default undefined,$(origin CXX)),)
CXX		:= g++$(CC_SUFFIX)
endif
HOSTCC		?= gcc$(CC_SUFFIX)
# GCC 16's headers need C++14; older ones are built as the kernel builds
# its plugins, as C++11.
CXX_STD		:= $(if $(filter-out 11 12 13 14 15,$(GCC_MAJOR)),gnu++17,gnu++11)
HOST_TARGET	:= $(shell $(HOSTCC) -dumpmachine 2>/dev/null || cc -dumpmachine 2>/dev/null)
PLUGIN_DIR	:= $(shell $(CC) -print-file-name=plugin 2>/dev/null)
ifeq ($(GCC_TARGET),$(HOST_TARGET))
PLUGIN_PKG	:= gcc-$(GCC_MAJOR)-plugin-dev
else
PLUGIN_PKG	:= gcc-$(GCC_MAJOR)-plugin-dev-$(GCC_TARGET)
endif
INIH_LIB	:= $(shell $(CXX) -print-file-name=libinih.a 2>/dev/null)

# What "make example" needs: the compiler, its plugin headers, inih.
EXAMPLE_PKGS	:= g++ make binutils libinih-dev $(if $(GCC_MAJOR),$(PLUGIN_PKG),gcc gcc-12-plugin-dev)
# What the whole test suite needs (tests/01-deps.t checks that every tool
# a test calls comes from one of these or from a required package).
# libclang-rt-14-dev (libFuzzer) is only a Recommends of clang: named here;
# clang-tools-14 has sancov-14 (reads .sancov files, tests/34).
# dpkg-dev, debhelper, fakeroot, lintian: make deb (tests/70); man-db:
# man -w and the rendering of the man pages (tests/70, tests/71).
DEPS_PKGS	:= g++ make libinih-dev gcc-12-plugin-dev gcc-11 g++-11 gcc-11-plugin-dev mmdebstrap \
		   gcc-aarch64-linux-gnu gcc-12-plugin-dev-aarch64-linux-gnu \
		   gcc-arm-linux-gnueabi gcc-12-plugin-dev-arm-linux-gnueabi \
		   gcc-12-source linux-source-6.1 linux-source-6.12 \
		   qemu-system-x86 flex bison bc libelf-dev libssl-dev cpio \
		   xz-utils perl python3 valgrind binutils clang clang-14 \
		   libclang-rt-14-dev llvm-14 clang-tools-14 rsync kmod time patch \
		   ccache icecc iproute2 \
		   git dpkg-dev debhelper fakeroot lintian man-db

PLUGIN_CXXFLAGS	:= -fPIC -fno-rtti -fno-exceptions -fasynchronous-unwind-tables \
		   -std=$(CXX_STD) -O2 -g -Wall -Wextra -Wno-unused-parameter \
		   -Wno-missing-field-initializers \
		   -I$(PLUGIN_DIR)/include -I. \
		   $(if $(KPLUG_DEB_PACKAGE),-DKPLUG_DEB_PACKAGE='"$(KPLUG_DEB_PACKAGE)"',-DKPLUG_SRCDIR='"$(KPLUG_SRCDIR)"') \
		   $(CPPFLAGS) $(CXXFLAGS)
# The distribution's build flags (dpkg-buildflags: hardening) come last:
# CPPFLAGS, CXXFLAGS, CFLAGS (kplug-report) and LDFLAGS, empty by default.
# KPLUG_DEB_PACKAGE: built for that Debian package, whose name the GCC
# version mismatch error gives instead of a rebuild command.
KPLUG_DEB_PACKAGE ?=
# Linked with the C driver: operator new/delete resolve to cc1's own (cc1
# exports them), so loading kplug does not map libstdc++.so into every cc1.
# g++ -> gcc, g++-14 -> gcc-14, "ccache g++-14" -> "ccache gcc-14".
PLUGIN_LD	?= $(subst g++,gcc,$(CXX))

PASS_SRCS	:= $(sort $(wildcard passes/*.c))
COMPAT_SRCS	:= $(sort $(wildcard compat/*.c))
CONFIG_SRCS	:= $(sort $(wildcard config/*.c))
PLUGIN_SRCS	:= kplug.c $(PASS_SRCS) $(COMPAT_SRCS) $(CONFIG_SRCS)
BUILD		:= build/gcc-$(GCC_MAJOR)-$(GCC_TARGET)
PLUGIN_OBJS	:= $(PLUGIN_SRCS:%.c=$(BUILD)/%.o)
HEADERS		:= $(wildcard *.h passes/*.h compat/*.h config/*.h)

# kplug-report is built from tools/report/ (main.c and the folders cmd/,
# input/, output/, core/; input/probeset.c and probeset-segs.c are the
# plugin's passes/ files of those names) and the JSON escaper it shares
# with the plugin;
# -pthread: its reader runs a parsing thread.
REPORT_SRCS	:= $(sort $(wildcard tools/report/*.c tools/report/*/*.c)) config/kplug-json.c
REPORT_HDRS	:= $(wildcard tools/report/*.h tools/report/*/*.h) config/kplug-json.h \
		   config/sancov-map-format.h config/cyc-record-format.h \
		   passes/probeset.c passes/probeset.h passes/probeset-segs.c \
		   passes/probeset-segs.h
TOOLS		:= $(patsubst tools/%.c,tools/%,$(wildcard tools/*.c)) tools/kplug-report

.PHONY: man install-tools deb print-deps torture-full FORCE all plugin tools install uninstall deps ensure-deps check check-quick check-kernel check-icecc clean prereqs example torture fuzz

all: plugin tools

prereqs:
	@command -v $(CC) >/dev/null 2>&1 || { echo "kplug: compiler '$(CC)' not found: apt-get install $(if $(GCC_MAJOR),gcc-$(GCC_MAJOR),$(CC)) (or: make deps)" >&2; exit 1; }
	@test -f "$(PLUGIN_DIR)/include/plugin-version.h" || { echo "kplug: no GCC plugin headers for $(CC) in $(PLUGIN_DIR)/include: apt-get install $(PLUGIN_PKG) (or: make deps)" >&2; exit 1; }
	@command -v $(firstword $(CXX)) >/dev/null 2>&1 || { echo "kplug: $(CXX) not found: apt-get install g++$(CC_SUFFIX) (or: make deps)" >&2; exit 1; }
	@test -f "$(INIH_LIB)" || { echo "kplug: static inih library (libinih.a) not found: apt-get install libinih-dev (or: make deps)" >&2; exit 1; }

# KPLUG_SO names the output; relink when it was last linked for another CC
# or another PROFILE.
KPLUG_SO	?= kplug.so
# "make PROFILE=file.ini" embeds the profile into kplug.so (section
# .kplug.profile), read before any argument: it travels with the plugin
# (icecream ships it, ccache hashes it).  See docs/distributed.md.
PROFILE		?=
BUILD_STAMP	:= $(BUILD)$(if $(PROFILE), profile=$(PROFILE))
LAST_BUILD	:= $(shell cat $(KPLUG_SO).build 2>/dev/null)
ifneq ($(LAST_BUILD),$(BUILD_STAMP))
RELINK		:= FORCE
endif

plugin: $(KPLUG_SO)

# kplug-link.sh is the one link recipe, shared with the kernel's build:
# weak GCC symbols (so the version check can run in another GCC), only
# plugin_init and plugin_is_GPL_compatible exported, no libstdc++.
$(KPLUG_SO): $(PLUGIN_OBJS) kplug-link.sh $(PROFILE) $(RELINK) | prereqs
	@mkdir -p $(dir $@)
	KPLUG_LDFLAGS="$(LDFLAGS)" $(SHELL) kplug-link.sh $@ $(CC) "$(PLUGIN_LD)" $(INIH_LIB) $(PLUGIN_OBJS)
ifneq ($(PROFILE),)
	@{ printf '%s\0' "$(PROFILE)" && cat "$(PROFILE)"; } > $@.profile
	objcopy --add-section .kplug.profile=$@.profile $@ && rm -f $@.profile
	@$(CC) -fplugin=$(abspath $@) -x c -c /dev/null -o /dev/null || \
		{ rm -f $@; echo "kplug: PROFILE=$(PROFILE) is not a valid profile (see above)" >&2; exit 1; }
endif
	@echo "$(BUILD_STAMP)" > $@.build

FORCE:

$(BUILD)/%.o: %.c $(HEADERS) Makefile | prereqs
	@mkdir -p $(dir $@)
	$(CXX) $(PLUGIN_CXXFLAGS) -x c++ -c -o $@ $<

# Host tools are plain C and need no GCC headers.
tools: $(TOOLS)

tools/%: tools/%.c
	$(HOSTCC) -O2 -g -Wall -Wextra -o $@ $< -lm

tools/kplug-report: $(REPORT_SRCS) $(REPORT_HDRS) Makefile
	$(HOSTCC) -O2 -g -Wall -Wextra -pthread -I. $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(REPORT_SRCS) -lm

install: $(KPLUG_SO)
	install -D -m 0644 $(KPLUG_SO) $(DESTDIR)$(PLUGIN_DIR)/kplug.so

uninstall:
	rm -f $(DESTDIR)$(PLUGIN_DIR)/kplug.so

# The man pages, generated from the pages in man/ and the programs' own
# help (man/mkman.pl): they cannot drift from it.
KPLUG_VERSION	:= $(shell sed -n 's/^\#define KPLUG_VERSION[[:space:]]*"\(.*\)"/\1/p' kplug.h)
MAN_PAGES	:= build/man/kplug.7 build/man/kplug-report.1 build/man/kplug-kbuild.1
POD2MAN		= pod2man --utf8 --center=kplug --release="kplug $(KPLUG_VERSION)" \
		  --section=$(subst .,,$(suffix $@)) --name=$(notdir $(basename $@))

man: $(MAN_PAGES)

build/man/kplug.7: man/kplug.7.pod man/mkman.pl $(KPLUG_SO)
	@mkdir -p $(dir $@)
	$(CC) -fplugin=$(abspath $(KPLUG_SO)) -fplugin-arg-kplug-help -x c -c /dev/null -o /dev/null >$@.help
	perl man/mkman.pl $< $@.help >$@.pod
	$(POD2MAN) $@.pod >$@

build/man/kplug-report.1: man/kplug-report.1.pod man/mkman.pl tools/kplug-report
	@mkdir -p $(dir $@)
	tools/kplug-report --help >$@.help
	perl man/mkman.pl $< $@.help >$@.pod
	$(POD2MAN) $@.pod >$@

build/man/kplug-kbuild.1: man/kplug-kbuild.1.pod man/mkman.pl kbuild/kplug-kbuild
	@mkdir -p $(dir $@)
	kbuild/kplug-kbuild --help >$@.help
	perl man/mkman.pl $< $@.help >$@.pod
	$(POD2MAN) $@.pod >$@

# What the kplug-tools package holds (and "make install-tools" installs):
# kplug-report, kplug-kbuild with the kbuild files and the kplug sources
# it copies into a kernel tree, the profiles, the man pages, the docs.
prefix		?= /usr
KPLUG_SHARE	:= $(prefix)/share/kplug
KPLUG_DOC	?= $(prefix)/share/doc/kplug-tools
KPLUG_SHARED	:= kplug.c kplug.h kplug-link.sh $(sort $(wildcard passes/*.[ch] compat/*.[ch] \
			config/*.[ch] config/*.ini)) $(shell cd kbuild && find tree patches -type f | sort)

install-tools: tools/kplug-report man
	install -D -m 0755 tools/kplug-report $(DESTDIR)$(prefix)/bin/kplug-report
	install -D -m 0755 kbuild/kplug-kbuild $(DESTDIR)$(KPLUG_SHARE)/kbuild/kplug-kbuild
	ln -sf ../share/kplug/kbuild/kplug-kbuild $(DESTDIR)$(prefix)/bin/kplug-kbuild
	$(foreach f,$(filter-out tree/% patches/%,$(KPLUG_SHARED)),install -D -m $(if $(filter %.sh,$(f)),0755,0644) \
		$(f) $(DESTDIR)$(KPLUG_SHARE)/$(f) &&) true
	$(foreach f,$(filter tree/% patches/%,$(KPLUG_SHARED)),install -D -m 0644 \
		kbuild/$(f) $(DESTDIR)$(KPLUG_SHARE)/kbuild/$(f) &&) true
	install -D -m 0644 build/man/kplug.7 $(DESTDIR)$(prefix)/share/man/man7/kplug.7
	install -D -m 0644 build/man/kplug-report.1 $(DESTDIR)$(prefix)/share/man/man1/kplug-report.1
	install -D -m 0644 build/man/kplug-kbuild.1 $(DESTDIR)$(prefix)/share/man/man1/kplug-kbuild.1
	install -D -m 0644 -t $(DESTDIR)$(KPLUG_DOC) README.md docs/*.md

# Debian packages, built with dpkg-buildpackage from a copy of this tree
# (the files git knows, committed or not, or the whole tree without build
# output) in DEB_OUT, then checked with lintian (errors and warnings fail;
# the justified ones are overridden in debian/*.lintian-overrides).
# debian/control is written there first for the distribution's compilers
# (bookworm: gcc-12-kplug gcc-11-kplug; trixie: gcc-14-kplug gcc-13-kplug;
# or KPLUG_DEB_GCCS="N M", see debian/rules).  DEB_BUILDPACKAGE_FLAGS: more
# options for dpkg-buildpackage.
DEB_OUT		?= out/deb
DEB_BUILDPACKAGE_FLAGS ?=

deb:
	@command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null && \
		command -v lintian >/dev/null && command -v fakeroot >/dev/null || \
		{ echo "kplug: make deb needs dpkg-dev, debhelper, fakeroot and lintian: apt-get install dpkg-dev debhelper fakeroot lintian (or: make deps)" >&2; exit 1; }
	rm -rf $(DEB_OUT) && mkdir -p $(DEB_OUT)/kplug-$(KPLUG_VERSION)
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git ls-files -z -c -o --exclude-standard | \
			xargs -0 -r sh -c 'for f; do [ -e "$$f" ] && printf "%s\0" "$$f"; done' sh | \
			tar --null -T - -cf - ; \
	else \
		tar --exclude=./out --exclude=./build --exclude=./tests/out --exclude='*.so' -cf - . ; \
	fi | tar -C $(DEB_OUT)/kplug-$(KPLUG_VERSION) -xf -
	cd $(DEB_OUT)/kplug-$(KPLUG_VERSION) && ./debian/rules debian/control && \
		dpkg-buildpackage -b -us -uc -jauto $(DEB_BUILDPACKAGE_FLAGS)
	lintian --fail-on error,warning $(DEB_OUT)/*.changes >$(DEB_OUT)/lintian.txt 2>&1; \
		rc=$$?; cat $(DEB_OUT)/lintian.txt; exit $$rc
	@ls $(DEB_OUT)/*.deb

# The chroots of the newer compilers (tools/toolchain-chroot: gcc-13 and
# gcc-14 in trixie, gcc-15 and gcc-16 in sid, Linux 7.2), cached in
# /var/cache/kplug; make check makes them on first use.
deps:
	@tools/ensure-deps --force $(DEPS_PKGS)
	tools/toolchain-chroot path trixie
	tools/toolchain-chroot path sid

# Install what is missing (apt-get update first), then build.
ensure-deps:
	@tools/ensure-deps $(DEPS_PKGS)

# The plugin and the tools before the tests: two jobs at a time (the
# harness's KPLUG_JOBS), each compile being one process.
CHECK_JOBS	:= $(or $(KPLUG_JOBS),2)

# The harness clears the variables that shrink the suite (KPLUG_QUICK,
# KPLUG_KERNEL_BUILDS, sample sizes) and ends with
# "N passed, N failed, N skipped"; under CI=true a skip is a failure.
check: ensure-deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) all
	perl tests/harness.pl tests/*.t

# Everything but the long kernel and corpus tests.
check-quick: ensure-deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) all
	perl tests/harness.pl --quick tests/*.t

# Only the kernel tests (tests/5*): kbuild integration, builds, KCOV boot.
check-kernel: ensure-deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) all
	perl tests/harness.pl tests/5*-kernel*.t

# The Linux 6.12 build through icecream and ccache compared with the local
# one (docs/distributed.md); also part of make check.
check-icecc: ensure-deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) all
	perl tests/harness.pl tests/54-kernel-icecc.t

# The bundled example: complexity report and sancov coverage.  Installs
# only what the example needs, not the test suite's packages.
example:
	@tools/ensure-deps $(EXAMPLE_PKGS)
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) all
	example/run.sh

clean:
	rm -rf build kplug.so kplug.so.build $(TOOLS) out

# Hardening (docs/hardening.md).  torture: GCC's C torture suite with every
# kplug pass on, a seeded sample per level (-O0 -O1 -O2 -Os -O3, -g
# -fcompare-debug), on GCC 12 and GCC 11; fails on any ICE, compare-debug or
# kplug-only failure.  CI runs a smaller sample of the same script
# (tests/60-torture.t in make check); torture-full runs every file at every
# level on both compilers (3,495 files x 6 levels each; not in CI).
# fuzz: each libFuzzer harness for FUZZ_SECONDS.
TORTURE_SAMPLE	?= 600
TORTURE_SAMPLE11 ?= 300
FUZZ_SECONDS	?= 600

torture: all
	tests/torture.sh --sample $(TORTURE_SAMPLE) --seed 1
	$(MAKE) --no-print-directory CC=gcc-11 KPLUG_SO=build/gcc-11/kplug.so plugin
	tests/torture.sh --cc gcc-11 --plugin build/gcc-11/kplug.so --sample $(TORTURE_SAMPLE11) --seed 2

torture-full:
	$(MAKE) --no-print-directory TORTURE_SAMPLE=0 TORTURE_SAMPLE11=0 torture

fuzz:
	$(MAKE) -C tests/fuzz run SECONDS=$(FUZZ_SECONDS)

# For tests/01-deps.t.
print-deps:
	@echo $(DEPS_PKGS)
