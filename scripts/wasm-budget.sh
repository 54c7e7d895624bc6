#!/usr/bin/env bash
# The wasm every page loads (the main module of the first bundle; the
# chunks of lazy islands only where such an island is shown; the douze/
# bundle only where a 12×12 board is shown), brotli-compressed, held to a
# budget: prints every module's size and fails when the first bundle's
# main module is over. The budget is the 200 KB (204,800 bytes) that #30
# set for the first page (the README's "Measured" says where the bytes
# are).
# Usage: scripts/wasm-budget.sh BUNDLE_DIR (a release bundle, with .br twins)
set -euo pipefail
bundle=$1
budget=${DAMES_WASM_BUDGET:-204800}
main="$bundle/dames.wasm.br"
if ! [ -f "$main" ]; then
  echo "wasm-budget: no $main (a release bundle has brotli twins)" >&2
  exit 1
fi
for module in "$bundle"/*.wasm "$bundle"/douze/dames.wasm; do
  printf 'wasm-budget: %-40s %8d raw %8d gzip %8d brotli\n' "${module#"$bundle"/}" \
    "$(stat -c %s "$module")" "$(stat -c %s "$module.gz")" "$(stat -c %s "$module.br")"
done
size=$(stat -c %s "$main")
if [ "$size" -gt "$budget" ]; then
  echo "wasm-budget: the first page's wasm is $size bytes of brotli, over its budget of $budget" >&2
  exit 1
fi
echo "wasm-budget: the first page's wasm, $size bytes of brotli, is within its budget of $budget"
