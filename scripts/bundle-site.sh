#!/usr/bin/env bash
# Lays out target/site from the two wasm builds cargo made of the app: the
# first bundle, which every page loads (without the 12×12 board), and the
# one with the 12×12 board, which only pages showing one load (see
# src/app/bundle.rs). For each:
# 1. wasm-split cuts the lazy islands (`#[island(lazy)]`: the electronic
#    board, the replay) out of the main module into chunks fetched only by
#    the pages that show them;
# 2. wasm-bindgen writes the JS glue for the main module (keeping the
#    exports the chunks link against);
# 3. with RELEASE=1, the code the site never runs but the exported
#    function table keeps (asynchronous hydration, float formatting) is
#    stubbed out of the main module (scripts/stub-unused-code.mjs), its
#    imports from the glue get short names (scripts/shorten-imports.mjs),
#    and wasm-opt shrinks every module.
# Then the first bundle goes to target/site/pkg/<hash>/ and the other to
# its douze/ folder, <hash> being the content hash of all of it, so that
# every file can be cached for a year; every file gets a .gz twin and, with
# RELEASE=1, a brotli one (the server serves it to browsers that accept
# brotli), and the first page's wasm is held to its budget
# (scripts/wasm-budget.sh); build.txt tells the server the folder; public/
# is copied beside.
# Usage: scripts/bundle-site.sh FIRST_WASM TWELVE_WASM [SITE]
set -euo pipefail
first_wasm=$1
twelve_wasm=$2
site=${3:-target/site}
work=target/bundle
rm -rf "$work"
mkdir -p "$work/out"

# Binaryen does not read a subsection of the names wasm-split writes into
# the chunks (wasm-opt skips it and says so, once a chunk): not news.
quiet_names() { grep -v 'unknown name subsection' >&2 || true; }

# bundle CARGO_WASM OUT: one bundle, steps 1 to 3, into OUT.
bundle() {
  local cargo_wasm=$1 out=$2 split
  split=$(mktemp -d "$work/split.XXXX")
  mkdir -p "$out"
  wasm-split-cli "$cargo_wasm" "$split" --out-name dames
  wasm-bindgen --target web --no-typescript --keep-lld-exports --no-demangle \
    --out-dir "$out" --out-name dames "$split/dames.wasm"
  # The chunks and the loader that fetches them sit beside the glue, which
  # the loader imports as ./dames.js.
  find "$split" -maxdepth 1 -type f ! -name dames.wasm -exec cp {} "$out/" \;
  # The page's loader asks for `dames.wasm` (no `_bg`).
  mv "$out/dames_bg.wasm" "$out/dames.wasm"
  if [ "${RELEASE:-0}" = 1 ]; then
    node scripts/stub-unused-code.mjs "$out/dames.wasm" "$cargo_wasm"
    node scripts/shorten-imports.mjs "$out/dames.wasm" "$out/dames.js"
    for module in "$out"/*.wasm; do
      # --converge: -Oz again until nothing shrinks (about 1 KB of brotli
      # off the main module).
      end2end/node_modules/.bin/wasm-opt -Oz --converge --enable-bulk-memory --enable-nontrapping-float-to-int \
        "$module" -o "$module" 2> >(quiet_names)
    done
  fi
}

# Side by side (each is mostly one wasm-opt at a time; a machine has two
# cores), each one's failure the script's.
bundle "$first_wasm" "$work/out" &
first=$!
bundle "$twelve_wasm" "$work/out/douze" &
twelve=$!
wait "$first"
wait "$twelve"
cp style/main.css "$work/out/dames.css"

hash=$(cd "$work/out" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 cat | sha256sum | cut -c1-12)
rm -rf "$site/pkg"
mkdir -p "$site/pkg"
cp -r "$work/out" "$site/pkg/$hash"
find "$site/pkg/$hash" -type f \( -name '*.js' -o -name '*.wasm' -o -name '*.css' \) -exec gzip -9 -k -f {} +
if [ "${RELEASE:-0}" = 1 ]; then
  # Node's zlib, which the release tools install (wasm-opt comes from npm).
  find "$site/pkg/$hash" -type f \( -name '*.js' -o -name '*.wasm' -o -name '*.css' \) -print0 |
    xargs -0 node -e '
      const zlib = require("zlib"), fs = require("fs");
      for (const file of process.argv.slice(1)) {
        const data = fs.readFileSync(file);
        fs.writeFileSync(file + ".br", zlib.brotliCompressSync(data, { params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
      }'
  ./scripts/wasm-budget.sh "$site/pkg/$hash"
fi
cp -r public/. "$site/"
echo "$hash" > "$site/build.txt"
echo "site: $site/pkg/$hash/ ($(cd "$site/pkg/$hash" && ls | grep -c '\.wasm$') wasm modules; douze/: $(cd "$site/pkg/$hash/douze" && ls | grep -c '\.wasm$'))"
