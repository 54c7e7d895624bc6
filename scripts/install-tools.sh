#!/usr/bin/env bash
# Installs what the build and the tests need, skipping what is there:
# the wasm32 target, rustfmt, clippy and wasm-bindgen-cli (the exact version
# of the crate) always; with --browser, Debian's Chromium and the npm packages of end2end/
# (Playwright, axe-core); with --release, the npm packages (binaryen's
# wasm-opt). Never downloads a browser build of its own.
set -euo pipefail
WASM_BINDGEN_VERSION=0.2.129

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

# `make check` needs the formatter and the linter.
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    rustup component add "$component"
  fi
done

if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$WASM_BINDGEN_VERSION" ]; then
  cargo install --locked wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

sudo=""
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi

if [ "${1:-}" = "--browser" ] && ! [ -x /usr/bin/chromium ]; then
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

# Node.js and the npm packages: for the browser tests and for wasm-opt
# (release builds); a debug `make run` needs neither.
if [ "${1:-}" = "--browser" ] || [ "${1:-}" = "--release" ]; then
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
