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
//    is checked rather than trusted: serde's message is stubbed first,
//    then the float formatter only when no other function and no data (a
//    vtable, say) holds its table index, in the main module or in any
//    lazy chunk (they call it through the same table); otherwise it is
//    left as it is, with a warning, and the size budget says the rest.
//
// Usage: node scripts/stub-unused-code.mjs MODULE.wasm [CHUNK.wasm…]
// (the main module is rewritten in place and must still have its name
// section, as wasm-bindgen leaves it; the chunks are only read).
import fs from 'node:fs';
import binaryen from '../end2end/node_modules/binaryen/index.js';

const [path, ...chunks] = process.argv.slice(2);
if (!path) {
  console.error('usage: stub-unused-code.mjs MODULE.wasm [CHUNK.wasm…]');
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

// The text form, read once: who calls whom directly, and the constants in
// each function's body. Names are `$name`, or `$"name with spaces"`.
const name = String.raw`\$("[^"]*"|[^\s()]+)`;
const unquote = (text) => text.replace(/^"(.*)"$/, '$1');
const funcHeader = new RegExp(String.raw`^ \(func ` + name);
const directCall = new RegExp(String.raw`\((?:return_)?call ` + name, 'g');
const constant = /\(i32\.const (\d+)\)/g;
const callers = new Map();
/// Each function's i32 constants, by function, of a module's text form.
const constantsIn = (text, onCall) => {
  const constants = new Map();
  let current = null;
  for (const line of text.split('\n')) {
    const func = line.match(funcHeader);
    if (func) {
      current = unquote(func[1]);
      constants.set(current, new Set());
      continue;
    }
    if (current === null) continue;
    if (onCall) for (const call of line.matchAll(directCall)) onCall(current, unquote(call[1]));
    for (const value of line.matchAll(constant)) constants.get(current).add(Number(value[1]));
  }
  return constants;
};
const constantsOf = constantsIn(module.emitText(), (caller, callee) => {
  if (!callers.has(callee)) callers.set(callee, new Set());
  callers.get(callee).add(caller);
});
// The chunks' functions, named after their file.
const chunkBytes = chunks.map((chunk) => fs.readFileSync(chunk));
chunks.forEach((chunk, i) => {
  const text = binaryen.readBinary(chunkBytes[i]).emitText();
  for (const [func, values] of constantsIn(text)) constantsOf.set(`${chunk}: ${func}`, values);
});

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
// serde's `WithDecimalPoint` (its `Display` and the writer inside it).
const serdeFloat = functionsNamed(/serde_core\.\.de\.\.WithDecimalPoint/);
// `<f64 as Display>::fmt`: legacy mangling, or v0 (`core::fmt::float`, `d`
// for f64).
const [floatDisplay, ...others] = functionsNamed(/f64 as core\.\.fmt\.\.Display|4core3fmt5floatdNtB7_7Display3fmt/);
if (serdeFloat.length === 0 || !floatDisplay || others.length > 0) {
  console.warn('stub-unused-code: warning: serde\'s float message or the float formatter not found once; left as they are');
} else {
  serdeFloat.forEach(writeNothing);
  const stubbed = new Set(serdeFloat.map((info) => info.name));
  const index = tableIndexOf(floatDisplay.name);
  const heldBy = [...constantsOf].filter(([func, values]) => !stubbed.has(func) && values.has(index)).map(([func]) => func);
  if (index === null) {
    console.warn('stub-unused-code: warning: the float formatter is not in the function table; left as it is');
  } else if (heldBy.length > 0 || [bytes, ...chunkBytes].some((module) => dataHolds(module, index))) {
    console.warn(
      `stub-unused-code: warning: the float formatter's table index ${index} is held by ` +
        `${heldBy.length > 0 ? heldBy.join(', ') : 'the data'}: something may write a float; left as it is`,
    );
  } else {
    writeNothing(floatDisplay);
    console.log('stub-unused-code: the float formatter stubbed (its one caller, serde\'s message, too)');
  }
}

if (!module.validate()) fail('the stubbed module does not validate');
fs.writeFileSync(path, module.emitBinary());

/// The function table's index of function `func`, from the active element
/// segments at constant offsets; null when it is not in the table.
function tableIndexOf(func) {
  for (let i = 0; i < module.getNumElementSegments(); i++) {
    const segment = binaryen.getElementSegmentInfo(module.getElementSegmentByIndex(i));
    const at = segment.data.indexOf(func);
    if (at >= 0 && segment.offset) return binaryen.getExpressionInfo(segment.offset).value + at;
  }
  return null;
}

/// Whether any data segment of the module `bytes` holds `value` as a
/// little-endian u32, at any byte (a function pointer in a static, such as
/// a vtable). Read from the binary's data section (id 11): a count, then
/// each segment's flags, its offset expression or memory index as the
/// flags say, its size and bytes.
function dataHolds(bytes, value) {
  let at = 8;
  const leb = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
    }
  };
  const skipConstantExpression = () => {
    // `i32.const N end` (or any expression up to its `end`, 0x0b, read by
    // instruction: the offsets here are constants or globals).
    const opcode = bytes[at++];
    if (opcode === 0x41 || opcode === 0x23) leb();
    else fail(`an unexpected data offset (opcode ${opcode})`);
    if (bytes[at++] !== 0x0b) fail('an unexpected data offset');
  };
  const needle = Buffer.alloc(4);
  needle.writeUInt32LE(value);
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 11) {
      for (let count = leb(); count > 0; count--) {
        const flags = leb();
        if (flags === 2) leb();
        if (flags !== 1) skipConstantExpression();
        const length = leb();
        if (bytes.subarray(at, at + length).indexOf(needle) >= 0) return true;
        at += length;
      }
      return false;
    }
    at = end;
  }
  return false;
}
