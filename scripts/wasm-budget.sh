#!/usr/bin/env bash
# The first page a player opens (any page: they all load the main module,
# and the chunks of lazy islands only where such an island is shown) may
# load at most 200 KB (204,800 bytes) of brotli-compressed wasm (#30).
# Prints every module's size and fails when the main module is over.
# Usage: scripts/wasm-budget.sh BUNDLE_DIR (a release bundle, with .br twins)
set -euo pipefail
bundle=$1
budget=${DAMES_WASM_BUDGET:-204800}
main="$bundle/dames.wasm.br"
if ! [ -f "$main" ]; then
  echo "wasm-budget: no $main (a release bundle has brotli twins)" >&2
  exit 1
fi
for module in "$bundle"/*.wasm; do
  printf 'wasm-budget: %-40s %8d raw %8d gzip %8d brotli\n' "$(basename "$module")" \
    "$(stat -c %s "$module")" "$(stat -c %s "$module.gz")" "$(stat -c %s "$module.br")"
done
size=$(stat -c %s "$main")
if [ "$size" -gt "$budget" ]; then
  echo "wasm-budget: the first page's wasm is $size bytes of brotli, over its budget of $budget" >&2
  exit 1
fi
echo "wasm-budget: the first page's wasm, $size bytes of brotli, is within its budget of $budget"
