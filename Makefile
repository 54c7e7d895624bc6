# Dames: `make run` serves the app, `make test` runs every test.
# Both install what is missing first (scripts/install-tools.sh).
SHELL := /bin/bash
WASM_TARGET := wasm32-unknown-unknown
CARGO ?= cargo
# Builds that lint as they compile: clippy's driver compiles the crate
# itself (its dependencies go to rustc as usual), warnings denied. `make
# check` and `make test` build through it, so the test binaries, the server
# the browser tests start and the browser bundle are compiled once for both.
# (`make run` builds without it: a lint never stops a developer's server.)
LINTED_ENV = RUSTC_WORKSPACE_WRAPPER="$$(rustup which clippy-driver)" \
	CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
LINTED_CARGO = $(LINTED_ENV) $(CARGO)

.PHONY: run test test-build linted-site check release run-release cluster tools tools-toolchain tools-browser tools-postgres tools-release site site-release server server-release bench

## Serve the app (debug build) on LEPTOS_SITE_ADDR (127.0.0.1:3000), database DAMES_DB (dames.sqlite3).
run: tools site server
	./target/debug/dames

## A local cluster: a throw-away PostgreSQL in target/cluster, two app
## servers on it and a round-robin proxy on http://127.0.0.1:8080.
cluster: tools-postgres site server
	./target/debug/dames cluster --servers 2 --port 8080

## Every test: Rust (engine and server), then the browser tests. Ends with `N passed, N failed`.
## The browser tests run the server that the test build made (target/debug/dames,
## with the test build's features), so the crate's dependencies are compiled once.
test: tools-browser linted-site test-build
	$(LINTED_ENV) ./scripts/test-all.sh

## The Rust test binaries, and with them the server binary the browser tests
## start, linted as they build.
test-build: tools
	$(LINTED_CARGO) test --workspace --features dames/ssr --no-run

## Formatting and lints, warnings denied, for the server (with its tests)
## and for the browser build (the release one, which the browser tests
## drive): clippy runs as they are built (see LINTED_CARGO), so `make test`
## afterwards compiles nothing again.
check: tools-toolchain
	$(CARGO) fmt --all --check
	$(LINTED_CARGO) test --workspace --features dames/ssr --no-run
	$(LINTED_CARGO) build --lib --target $(WASM_TARGET) --features hydrate --profile wasm-release

## The optimised server at target/release/dames, the site in target/site.
release: tools-release site-release server-release

run-release: release
	./target/release/dames

tools:
	./scripts/install-tools.sh

## The target and the components only: `make check` bundles nothing.
tools-toolchain:
	./scripts/install-tools.sh --toolchain-only

tools-browser:
	./scripts/install-tools.sh --browser --postgres

tools-postgres:
	./scripts/install-tools.sh --postgres

tools-release:
	./scripts/install-tools.sh --release

# $(call build-site,CARGO,PROFILE,PROFILE_DIR,RELEASE): the two browser
# builds (the first bundle, then the one with the 12×12 board: see
# src/app/bundle.rs), which cargo writes to the same file, so the first is
# copied aside; then the site laid out from both.
define build-site
	$(1) build --lib --target $(WASM_TARGET) --features hydrate --profile $(2)
	cp target/$(WASM_TARGET)/$(3)/dames.wasm target/$(WASM_TARGET)/$(3)/dames-first.wasm
	$(1) build --lib --target $(WASM_TARGET) --features hydrate,twelve --profile $(2)
	RELEASE=$(4) ./scripts/bundle-site.sh target/$(WASM_TARGET)/$(3)/dames-first.wasm target/$(WASM_TARGET)/$(3)/dames.wasm
endef

site:
	$(call build-site,$(CARGO),dev,debug,0)

## The release site from the linted build (the one `make check` made): the
## browser tests drive what ships, and a first page over its wasm budget
## fails `make test` (scripts/wasm-budget.sh).
linted-site:
	$(call build-site,$(LINTED_CARGO),wasm-release,wasm-release,1)

## The release site: split, optimised, brotli twins, and the first page's
## wasm held to its budget (scripts/wasm-budget.sh).
site-release:
	$(call build-site,$(CARGO),wasm-release,wasm-release,1)

server:
	$(CARGO) build --bin dames --features ssr

server-release:
	$(CARGO) build --release --bin dames --features ssr

## Speed figures quoted in the README.
bench: server-release
	./target/release/dames perft start 11
	./target/release/dames bench ../shared/data/pdn/*/*.pdn
	./target/release/dames bench-server
