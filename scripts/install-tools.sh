#!/usr/bin/env bash
# Installs what the build and the tests need, skipping what is there:
# the wasm32 target, rustfmt, clippy, wasm-bindgen-cli (the exact version
# of the crate) and wasm-split-cli always; with --browser, Debian's Chromium and the npm packages of end2end/
# (Playwright, axe-core); with --release, the npm packages (binaryen's
# wasm-opt); with --postgres, Debian's PostgreSQL server (for the tests and
# `make cluster`, which start throw-away clusters of their own: the
# package's own cluster is left stopped). Never downloads a browser build of its own.
# With --system-only, only the system and npm packages (no Rust tool); with
# --toolchain-only, only the target and the components (what `make check`
# needs); with --bundler-only, only wasm-bindgen-cli and wasm-split-cli
# (what bundling the site needs). CI installs the packages and the bundler
# in the background while the crate compiles: the compiler leaves a core
# idle for long stretches (the last crates build one at a time).
# Flags may be combined.
set -euo pipefail
WASM_BINDGEN_VERSION=0.2.129
WASM_SPLIT_VERSION=0.2.4
browser=0 release=0 postgres=0 toolchain=1 bundler=1
for flag in "$@"; do
  case "$flag" in
    --system-only) toolchain=0 bundler=0 ;;
    --toolchain-only) bundler=0 ;;
    --bundler-only) toolchain=0 ;;
    --browser) browser=1 ;;
    --release) release=1 ;;
    --postgres) postgres=1 ;;
    *) echo "install-tools.sh: unknown flag $flag" >&2; exit 2 ;;
  esac
done

if [ "$toolchain" = 1 ]; then
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
  fi

  # `make check` needs the formatter and the linter.
  for component in rustfmt clippy; do
    if ! rustup component list --installed | grep -q "^$component"; then
      rustup component add "$component"
    fi
  done
fi

# The bundler is built unoptimised (`--debug`): that halves its build (for
# wasm-split-cli, 55 s against 101 s here) for a few seconds more of its
# work on a bundle (3.3 s against 0.5 s on the debug site's wasm), and CI
# builds it on every run.
if [ "$bundler" = 1 ]; then
  if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$WASM_BINDGEN_VERSION" ]; then
    cargo install --debug --locked wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi

  # wasm-split-cli cuts the lazy islands out of the main wasm module
  # (scripts/bundle-site.sh); its crate's `build-binary` feature builds it.
  # (It prints no version of its own: cargo's list of installs tells.)
  if ! command -v wasm-split-cli >/dev/null ||
    ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
    cargo install --debug --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" \
      --features build-binary --bin wasm-split-cli
  fi
fi

sudo=""
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi

if [ "$browser" = 1 ] && ! [ -x /usr/bin/chromium ]; then
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

# Node.js and the npm packages: for the browser tests and for wasm-opt
# (release builds); a debug `make run` needs neither.
if [ "$browser" = 1 ] || [ "$release" = 1 ]; then
  if ! command -v npm >/dev/null; then
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
  fi
  stamp=end2end/node_modules/.installed-lock
  if ! [ -f "$stamp" ] || ! cmp -s end2end/package-lock.json "$stamp"; then
    (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
    cp end2end/package-lock.json "$stamp"
  fi
fi

# PostgreSQL's server programs (initdb, pg_ctl, postgres) under
# /usr/lib/postgresql/<version>/bin. Debian's package creates and starts a
# cluster of its own where services run; nothing here uses it.
if [ "$postgres" = 1 ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
fi
