#!/usr/bin/env bash
# Lays out target/site from wasm-bindgen's output: names carry a content
# hash (dames-<hash>.js/.wasm/.css) so they can be cached for a year, each
# gets a .gz twin for clients that accept gzip (and, with BROTLI=1, a .br
# for those that accept brotli), public/ is copied beside, and build.txt
# tells the server the name.
set -euo pipefail
bindgen_out=$1
site=${2:-target/site}
hash=$(cat "$bindgen_out/dames.js" "$bindgen_out/dames_bg.wasm" style/main.css | sha256sum | cut -c1-12)
name="dames-$hash"
rm -rf "$site/pkg"
mkdir -p "$site/pkg"
cp "$bindgen_out/dames.js" "$site/pkg/$name.js"
cp "$bindgen_out/dames_bg.wasm" "$site/pkg/$name.wasm"
cp style/main.css "$site/pkg/$name.css"
if [ -d "$bindgen_out/snippets" ]; then cp -r "$bindgen_out/snippets" "$site/pkg/"; fi
gzip -9 -k -f "$site/pkg/$name.js" "$site/pkg/$name.wasm" "$site/pkg/$name.css"
# A release bundle also gets a .br twin (smaller than gzip; the server
# serves it to browsers that accept brotli), made with Node's zlib, which
# the release tools install (wasm-opt comes from npm).
if [ "${BROTLI:-0}" = 1 ]; then
  node -e '
    const zlib = require("zlib"), fs = require("fs");
    for (const file of process.argv.slice(1)) {
      const data = fs.readFileSync(file);
      fs.writeFileSync(file + ".br", zlib.brotliCompressSync(data, { params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
    }' "$site/pkg/$name.js" "$site/pkg/$name.wasm" "$site/pkg/$name.css"
fi
cp -r public/. "$site/"
echo "$name" > "$site/build.txt"
echo "site: $site/pkg/$name.{js,wasm,css}"
