// Replaces with stubs the functions of the main wasm module that the site
// never runs but the build cannot drop by itself, so that the optimiser
// then drops them and all they alone call. The module's function table is
// exported (the lazy islands' chunks call the main module through it), so
// `wasm-opt` keeps every function whose address was ever taken, and all
// that it calls. Two such groups are stubbed:
//
// 1. Asynchronous hydration (`hydrate_async`), replaced with a trap.
//    Leptos's islands hydrate synchronously (the island macro calls
//    `hydrate_from_position::<true>`, lazy islands too once their code is
//    loaded); asynchronous hydration is only for `hydrate_lazy` and
//    `hydrate_from_async`, which this site never calls. Yet every
//    type-erased view (`into_any()`) stores a pointer to its
//    `hydrate_async`, which kept the whole async state machine: about
//    70 KB of code before `wasm-opt`, 12 KB of brotli. Should a future
//    Leptos hydrate an island this way, the island would trap at once, and
//    the browser tests, which drive the release bundle, would fail.
//
// 2. Float formatting (`<f64 as Display>::fmt`), replaced with writing
//    nothing. The site writes no float as text (the motion's offsets are
//    whole pixels, the analysis graph's coordinates are written from
//    integers: `tenths`); what is left is serde's message for a float
//    where something else was expected (`invalid type: floating point
//    …`), which then lacks the number. That message is never shown: the
//    server's answers are its own JSON, and its errors are French texts.
//    The formatter weighs about 14 KB of code, 6.5 KB of brotli. The stub
//    is checked rather than trusted, on the module as the linker wrote it
//    (before the split: every chunk's code is in it), whose relocations
//    say exactly where the address of each function is taken: the
//    formatter is stubbed only when serde's message is the one place that
//    takes its address or calls it; otherwise it is left as it is, with a
//    warning naming the other places, and the size budget says the rest.
//
// Usage: node scripts/stub-unused-code.mjs MODULE.wasm LINKED.wasm
// (MODULE, after wasm-bindgen, is rewritten in place and must still have
// its name section, as wasm-bindgen leaves it; LINKED is cargo's output,
// linked with --emit-relocs, and is only read).
import fs from 'node:fs';
import binaryen from '../end2end/node_modules/binaryen/index.js';
import { imports, Reader, sections } from './wasm-reader.mjs';

const [path, linkedPath] = process.argv.slice(2);
if (!path || !linkedPath) {
  console.error('usage: stub-unused-code.mjs MODULE.wasm LINKED.wasm');
  process.exit(2);
}
const fail = (message) => {
  console.error(`stub-unused-code: ${message}`);
  process.exit(1);
};
// The names go out again as they came in (wasm-opt drops them afterwards;
// a module stubbed by hand keeps them for its stack traces).
binaryen.setDebugInfo(true);
const bytes = fs.readFileSync(path);
const module = binaryen.readBinary(bytes);
// The features the rest of the build enables (rustc's wasm32 defaults,
// wasm-bindgen's externref), and no more: a feature set here may be used
// when the module is written out, and the browsers must know it.
const { Features } = binaryen;
module.setFeatures(
  Features.MVP | Features.MutableGlobals | Features.SignExt | Features.NontrappingFPToInt |
    Features.BulkMemory | Features.BulkMemoryOpt | Features.CallIndirectOverlong | Features.ReferenceTypes | Features.Multivalue,
);
if (!module.validate()) fail(`${path} does not validate with those features`);

/// The module's own functions (not imports) whose names match `pattern`.
const functionsNamed = (pattern) => {
  const found = [];
  for (let i = 0; i < module.getNumFunctions(); i++) {
    const info = binaryen.getFunctionInfo(module.getFunctionByIndex(i));
    if (!info.module && pattern.test(info.name)) found.push(info);
  }
  return found;
};

// Who calls whom directly, from the text form. Names are `$name`, or
// `$"name with spaces"`.
const name = String.raw`\$("[^"]*"|[^\s()]+)`;
const unquote = (text) => text.replace(/^"(.*)"$/, '$1');
const funcHeader = new RegExp(String.raw`^ \(func ` + name);
const directCall = new RegExp(String.raw`\((?:return_)?call ` + name, 'g');
const callers = new Map();
let current = null;
for (const line of module.emitText().split('\n')) {
  const func = line.match(funcHeader);
  if (func) current = unquote(func[1]);
  else if (current !== null) {
    for (const call of line.matchAll(directCall)) {
      const callee = unquote(call[1]);
      if (!callers.has(callee)) callers.set(callee, new Set());
      callers.get(callee).add(current);
    }
  }
}

// 1. Asynchronous hydration. Mangled (`13hydrate_async`) or not, as
// wasm-bindgen's --no-demangle leaves them.
const candidates = new Set(functionsNamed(/hydrate_async/).map((info) => info.name));
// The optimiser merges identical functions under one of their names: the
// element lookup that `hydrate` and `hydrate_async` both define became one
// function named after the latter, which synchronous hydration calls. So a
// candidate called directly by any function outside the set is kept, until
// nothing changes. (The lazy islands' chunks call the main module through
// the function table, which this does not follow: the browser tests, on
// every lazy island's page, are what checks them.)
for (let changed = true; changed; ) {
  changed = false;
  for (const candidate of candidates) {
    if ([...(callers.get(candidate) ?? [])].some((caller) => !candidates.has(caller))) {
      candidates.delete(candidate);
      changed = true;
    }
  }
}
// No name section, or Leptos renamed it: say so rather than quietly
// shipping the bigger module.
if (candidates.size === 0) fail(`nothing named hydrate_async to stub in ${path}`);
for (const candidate of candidates) {
  binaryen.Function.setBody(module.getFunction(candidate), module.unreachable());
}
console.log(`stub-unused-code: ${candidates.size} functions of asynchronous hydration stubbed`);

// 2. Float formatting. A `fmt` returns `fmt::Result` as an i32, 0 for Ok.
const writeNothing = (info) => {
  if (info.results !== binaryen.i32) fail(`${info.name} does not return an i32`);
  binaryen.Function.setBody(module.getFunction(info.name), module.i32.const(0));
};
// serde's `WithDecimalPoint` (its `Display` and the writer inside it), and
// `<f64 as Display>::fmt`: legacy mangling, or v0 (`core::fmt::float`,
// `d` for f64).
const serdeMessage = /WithDecimalPoint/;
const floatFormatter = /f64 as core\.\.fmt\.\.Display|4core3fmt5floatdNtB7_7Display3fmt/;
const serdeFloat = functionsNamed(serdeMessage);
const [floatDisplay, ...others] = functionsNamed(floatFormatter);
if (serdeFloat.length === 0 || !floatDisplay || others.length > 0) {
  console.warn('stub-unused-code: warning: serde\'s float message or the float formatter not found once; left as they are');
} else {
  const users = usersOf(fs.readFileSync(linkedPath), floatFormatter).filter((user) => !serdeMessage.test(user));
  serdeFloat.forEach(writeNothing);
  if (users.length > 0) {
    console.warn(
      `stub-unused-code: warning: the float formatter is used by ${users.join(', ')}: ` +
        'something writes a float; left as it is',
    );
  } else {
    writeNothing(floatDisplay);
    console.log('stub-unused-code: the float formatter stubbed (its one user, serde\'s message, too)');
  }
}

if (!module.validate()) fail('the stubbed module does not validate');
fs.writeFileSync(path, module.emitBinary());

/// Where the linked module `bytes` uses a function whose symbol matches
/// `pattern`: the names of the functions whose code takes its address or
/// calls it, and `a static` for its address in data (a vtable, say). Read
/// from the linker's relocations (`reloc.CODE`, `reloc.DATA`) and symbol
/// table (`linking`, subsection 8), as the tool conventions describe them.
function usersOf(bytes, pattern) {
  const byName = new Map(sections(bytes).map((section) => [section.name ?? section.id, section]));
  for (const needed of [2, 10, 'linking', 'reloc.CODE']) {
    if (!byName.has(needed)) fail(`${linkedPath} has no section ${needed} (is it linked with --emit-relocs?)`);
  }
  // Imported functions come first in the index space.
  const importedFunctions = imports(bytes, byName.get(2).body).entries.filter((entry) => entry.kind === 0).length;
  // The symbols: the functions' (kind 0) names and indices.
  const linking = byName.get('linking');
  const reader = new Reader(bytes, linking.body);
  reader.leb(); // version
  const functionSymbols = new Map();
  const functionNames = new Map();
  while (reader.at < linking.end) {
    const type = reader.byte();
    const end = reader.leb() + reader.at;
    if (type === 8) {
      for (let symbol = 0, count = reader.leb(); symbol < count; symbol++) {
        const kind = reader.byte();
        const flags = reader.leb();
        const undefined_ = (flags & 0x10) !== 0;
        if (kind === 0 || kind === 2 || kind === 4 || kind === 5) {
          const index = reader.leb();
          const named = !undefined_ || (flags & 0x40) !== 0;
          const symbolName = named ? reader.name() : '';
          if (kind === 0) {
            functionSymbols.set(symbol, symbolName);
            if (!undefined_) functionNames.set(index, symbolName);
          }
        } else if (kind === 1) {
          reader.name();
          if (!undefined_) {
            reader.leb();
            reader.leb();
            reader.leb();
          }
        } else if (kind === 3) reader.leb();
        else fail(`a symbol of an unexpected kind (${kind}) in ${linkedPath}`);
      }
    }
    reader.at = end;
  }
  // The code section's function bodies, by offset in its contents.
  const code = byName.get(10);
  reader.at = code.body;
  const bodies = [];
  for (let i = 0, count = reader.leb(); i < count; i++) {
    const size = reader.leb();
    bodies.push([reader.at - code.body, reader.at - code.body + size, importedFunctions + i]);
    reader.at += size;
  }
  const functionAt = (offset) => bodies.find(([start, end]) => start <= offset && offset < end)?.[2];
  // The relocations naming such a function: a table index taken (types 1,
  // 2, 12, 18, 19, 24) or a call (0, 26). Types that carry an addend:
  // 3–5, 8, 9, 11, 14–17, 21–23, 25.
  const users = new Set();
  const addend = new Set([3, 4, 5, 8, 9, 11, 14, 15, 16, 17, 21, 22, 23, 25]);
  const useOf = new Set([0, 1, 2, 12, 18, 19, 24, 26]);
  for (const [section, inData] of [['reloc.CODE', false], ['reloc.DATA', true]]) {
    if (!byName.has(section)) continue;
    reader.at = byName.get(section).body;
    reader.leb(); // the section they apply to
    for (let count = reader.leb(); count > 0; count--) {
      const type = reader.byte();
      const offset = reader.leb();
      const symbol = reader.leb();
      if (addend.has(type)) reader.leb();
      if (!useOf.has(type) || !functionSymbols.has(symbol) || !pattern.test(functionSymbols.get(symbol))) continue;
      users.add(inData ? 'a static' : functionNames.get(functionAt(offset)) ?? `function ${functionAt(offset)}`);
    }
  }
  return [...users];
}
