#!/usr/bin/env bash
# Installs what the build and the tests need, skipping what is there:
# the wasm32 target, wasm-bindgen-cli (the exact version of the crate),
# Debian's Chromium for the browser tests, and the npm packages of end2end/
# (Playwright, axe-core, binaryen's wasm-opt). Never downloads a browser
# build of its own.
set -euo pipefail
WASM_BINDGEN_VERSION=0.2.129

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$WASM_BINDGEN_VERSION" ]; then
  cargo install --locked wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [ "${1:-}" = "--browser" ] && ! [ -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  else
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  fi
fi

stamp=end2end/node_modules/.installed-lock
if ! [ -f "$stamp" ] || ! cmp -s end2end/package-lock.json "$stamp"; then
  (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
  cp end2end/package-lock.json "$stamp"
fi
