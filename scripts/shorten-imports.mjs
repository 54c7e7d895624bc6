// Gives the main wasm module's imports from its JavaScript glue short
// names, in the module and in the glue alike. wasm-bindgen names each
// import after its Rust path and a 16-digit hash
// (`__wbg_querySelector_ecbc2550705b235f`): some 200 imports, 9.8 KB of
// names in every page's wasm, the hashes hardly compressible. Only the
// glue's table of imports (`const import0 = { name: function… }`, whose
// object wasm-bindgen hands to the module as `./dames_bg.js`) knows them,
// so renaming both sides changes nothing else. The lazy chunks import
// only the memory, the table and the split's own functions, which keep
// their names.
//
// Usage: node scripts/shorten-imports.mjs MODULE.wasm GLUE.js (both
// rewritten in place; run after wasm-bindgen, before wasm-opt).
import fs from 'node:fs';
import { imports, sections } from './wasm-reader.mjs';

const [wasmPath, gluePath] = process.argv.slice(2);
if (!wasmPath || !gluePath) {
  console.error('usage: shorten-imports.mjs MODULE.wasm GLUE.js');
  process.exit(2);
}
const fail = (message) => {
  console.error(`shorten-imports: ${message}`);
  process.exit(1);
};
const GLUE_MODULE = './dames_bg.js';

const bytes = fs.readFileSync(wasmPath);
let glue = fs.readFileSync(gluePath, 'utf8');

// The glue's table of imports: from `const import0 = {` to its closing
// `    };`, one `        name: function(…` (or `name: value,`) a key.
const tableStart = glue.indexOf('    const import0 = {\n');
const tableEnd = glue.indexOf('\n    };\n', tableStart);
if (tableStart < 0 || tableEnd < 0) fail(`no table of imports (const import0 = {…}) in ${gluePath}`);
const table = glue.slice(tableStart, tableEnd);

/// `value` as an unsigned LEB128, as the binary writes sizes and counts.
const leb = (value) => {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return Buffer.from(out);
};
const utf8 = (text) => Buffer.concat([leb(Buffer.byteLength(text)), Buffer.from(text)]);

// Short names, in the order of the imports: `a`, `b`, … `Z`, `a1`…
const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const shortName = (i) => {
  let name = alphabet[i % alphabet.length];
  for (let rest = Math.floor(i / alphabet.length); rest > 0; rest = Math.floor(rest / 36)) {
    name += (rest % 36).toString(36);
  }
  return name;
};

// The import section (id 2) written again with the new names, each entry's
// description copied as it is; the other sections as they are.
const renames = new Map();
const parts = [bytes.subarray(0, 8)];
for (const section of sections(bytes)) {
  if (section.id !== 2) {
    parts.push(bytes.subarray(section.start, section.end));
    continue;
  }
  let read;
  try {
    read = imports(bytes, section.body);
  } catch (error) {
    fail(error.message);
  }
  if (read.end !== section.end) fail('the import section did not read to its end');
  const entries = [leb(read.entries.length)];
  for (const { module, field, descriptionStart, descriptionEnd } of read.entries) {
    let name = field;
    if (module === GLUE_MODULE) {
      name = shortName(renames.size);
      renames.set(field, name);
    }
    entries.push(utf8(module), utf8(name), bytes.subarray(descriptionStart, descriptionEnd));
  }
  const body = Buffer.concat(entries);
  parts.push(Buffer.from([2]), leb(body.length), body);
}
if (renames.size === 0) fail(`no imports from ${GLUE_MODULE} in ${wasmPath}`);

// The same names in the glue's table, each key once: every import must be
// found there, or the module would not link, and no short name may be a
// key the table already has.
const keyOf = (name) => new RegExp(String.raw`^(        )${name.replace(/[$]/g, '\\$&')}(: )`, 'm');
for (const short of renames.values()) {
  if (keyOf(short).test(table)) fail(`the glue's table already has a key ${short}`);
}
let renamed = table;
for (const [long, short] of renames) {
  const key = keyOf(long);
  if (!key.test(renamed)) fail(`the import ${long} is not in the glue's table`);
  renamed = renamed.replace(key, `$1${short}$2`);
}
glue = glue.slice(0, tableStart) + renamed + glue.slice(tableEnd);

fs.writeFileSync(wasmPath, Buffer.concat(parts));
fs.writeFileSync(gluePath, glue);
console.log(`shorten-imports: ${renames.size} imports renamed`);
