#!/usr/bin/env bash
# Lays out target/site from the wasm that cargo built:
# 1. wasm-split cuts the lazy islands (`#[island(lazy)]`: the electronic
#    board, the replay) out of the main module into chunks fetched only by
#    the pages that show them;
# 2. wasm-bindgen writes the JS glue for the main module (keeping the
#    exports the chunks link against);
# 3. with RELEASE=1, the code the site never runs but the exported
#    function table keeps (asynchronous hydration, float formatting) is
#    stubbed out of the main module (scripts/stub-unused-code.mjs), its
#    imports from the glue get short names (scripts/shorten-imports.mjs),
#    wasm-opt shrinks every module, each file gets a brotli
#    twin (the server serves it to browsers that accept brotli) and the
#    first page's wasm is held to its budget (scripts/wasm-budget.sh);
# 4. the bundle goes to target/site/pkg/<hash>/, a folder named by the
#    content hash of everything in it, so that all of it can be cached for
#    a year; every file gets a .gz twin; build.txt tells the server the
#    folder; public/ is copied beside.
# Usage: scripts/bundle-site.sh CARGO_WASM [SITE]
set -euo pipefail
cargo_wasm=$1
site=${2:-target/site}
work=target/bundle
rm -rf "$work"
mkdir -p "$work/split" "$work/out"

wasm-split-cli "$cargo_wasm" "$work/split" --out-name dames
wasm-bindgen --target web --no-typescript --keep-lld-exports --no-demangle \
  --out-dir "$work/out" --out-name dames "$work/split/dames.wasm"
# The chunks and the loader that fetches them sit beside the glue, which
# the loader imports as ./dames.js.
find "$work/split" -maxdepth 1 -type f ! -name dames.wasm -exec cp {} "$work/out/" \;
# Leptos asks for `<name>.wasm` (LEPTOS_OUTPUT_NAME is set: no `_bg`).
mv "$work/out/dames_bg.wasm" "$work/out/dames.wasm"
cp style/main.css "$work/out/dames.css"

# Binaryen does not read a subsection of the names wasm-split writes into
# the chunks (wasm-opt skips it and says so, once a chunk): not news.
quiet_names() { grep -v 'unknown name subsection' >&2 || true; }

if [ "${RELEASE:-0}" = 1 ]; then
  node scripts/stub-unused-code.mjs "$work/out/dames.wasm" "$cargo_wasm"
  node scripts/shorten-imports.mjs "$work/out/dames.wasm" "$work/out/dames.js"
  for module in "$work"/out/*.wasm; do
    # --converge: -Oz again until nothing shrinks (about 1 KB of brotli
    # off the main module).
    end2end/node_modules/.bin/wasm-opt -Oz --converge --enable-bulk-memory --enable-nontrapping-float-to-int \
      "$module" -o "$module" 2> >(quiet_names)
  done
fi

hash=$(cd "$work/out" && find . -type f | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-12)
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
echo "site: $site/pkg/$hash/ ($(cd "$site/pkg/$hash" && ls | grep -c '\.wasm$') wasm modules)"
