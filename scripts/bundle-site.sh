#!/usr/bin/env bash
# Lays out target/site from wasm-bindgen's output: names carry a content
# hash (dames-<hash>.js/.wasm/.css) so they can be cached for a year, each
# gets a .gz twin for clients that accept gzip, public/ is copied beside,
# and build.txt tells the server the name.
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
cp -r public/. "$site/"
echo "$name" > "$site/build.txt"
echo "site: $site/pkg/$name.{js,wasm,css}"
