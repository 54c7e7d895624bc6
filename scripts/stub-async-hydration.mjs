// Replaces the body of every function of a wasm module whose name says it
// hydrates asynchronously (`hydrate_async`) with a trap, so that the
// optimiser then drops them and all they alone call.
//
// Why it is safe: Leptos's islands hydrate synchronously (the island macro
// calls `hydrate_from_position::<true>`, lazy islands too once their code is
// loaded); asynchronous hydration is only for `hydrate_lazy` and
// `hydrate_from_async`, which this site never calls. Yet every type-erased
// view (`into_any()`) stores a pointer to its `hydrate_async`, so the
// compiler keeps each one with the whole async state machine behind it:
// about 70 KB of the main module's code before `wasm-opt`, 12 KB of brotli.
// Should a future Leptos hydrate an island this way, the island would trap
// at once, and the browser tests, which drive the release bundle, would
// fail.
//
// Usage: node scripts/stub-async-hydration.mjs MODULE.wasm
// (rewritten in place; the module must still have its name section, as
// wasm-bindgen leaves it).
import fs from 'node:fs';
import binaryen from '../end2end/node_modules/binaryen/index.js';

const [path] = process.argv.slice(2);
if (!path) {
  console.error('usage: stub-async-hydration.mjs MODULE.wasm');
  process.exit(2);
}
// The names go out again as they came in (wasm-opt drops them afterwards;
// a module stubbed by hand keeps them for its stack traces).
binaryen.setDebugInfo(true);
const module = binaryen.readBinary(fs.readFileSync(path));
// The features the rest of the build enables (rustc's wasm32 defaults,
// wasm-bindgen's externref), and no more: a feature set here may be used
// when the module is written out, and the browsers must know it.
const { Features } = binaryen;
module.setFeatures(
  Features.MVP | Features.MutableGlobals | Features.SignExt | Features.NontrappingFPToInt |
    Features.BulkMemory | Features.BulkMemoryOpt | Features.CallIndirectOverlong | Features.ReferenceTypes | Features.Multivalue,
);
if (!module.validate()) {
  console.error(`stub-async-hydration: ${path} does not validate with those features`);
  process.exit(1);
}
// Mangled (`13hydrate_async`) or not, as wasm-bindgen's --no-demangle
// leaves them.
const asyncHydration = /hydrate_async/;
const candidates = new Set();
for (let i = 0; i < module.getNumFunctions(); i++) {
  const info = binaryen.getFunctionInfo(module.getFunctionByIndex(i));
  if (!info.module && asyncHydration.test(info.name)) candidates.add(info.name);
}
// The optimiser merges identical functions under one of their names: the
// element lookup that `hydrate` and `hydrate_async` both define became one
// function named after the latter, which synchronous hydration calls. So a
// candidate called directly by any function outside the set is kept, until
// nothing changes. (The lazy islands' chunks call the main module through
// the function table, which this does not follow: the browser tests, on
// every lazy island's page, are what checks them.)
// Names in the text form: `$name`, or `$"name with spaces"`.
const name = String.raw`\$("[^"]*"|[^\s()]+)`;
const unquote = (text) => text.replace(/^"(.*)"$/, '$1');
const funcHeader = new RegExp(String.raw`^ \(func ` + name);
const directCall = new RegExp(String.raw`\((?:return_)?call ` + name, 'g');
const callers = new Map();
let current = null;
for (const line of module.emitText().split('\n')) {
  const func = line.match(funcHeader);
  if (func) {
    current = unquote(func[1]);
    continue;
  }
  for (const call of line.matchAll(directCall)) {
    const callee = unquote(call[1]);
    if (!callers.has(callee)) callers.set(callee, new Set());
    callers.get(callee).add(current);
  }
}
for (let changed = true; changed; ) {
  changed = false;
  for (const candidate of candidates) {
    if ([...(callers.get(candidate) ?? [])].some((caller) => !candidates.has(caller))) {
      candidates.delete(candidate);
      changed = true;
    }
  }
}
let stubbed = 0;
for (const candidate of candidates) {
  binaryen.Function.setBody(module.getFunction(candidate), module.unreachable());
  stubbed++;
}
if (stubbed === 0) {
  // No name section, or Leptos renamed it: say so rather than quietly
  // shipping the bigger module.
  console.error(`stub-async-hydration: nothing named hydrate_async to stub in ${path}`);
  process.exit(1);
}
fs.writeFileSync(path, module.emitBinary());
console.log(`stub-async-hydration: ${stubbed} functions stubbed in ${path}`);
