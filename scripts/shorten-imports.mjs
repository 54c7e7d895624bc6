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

/// Reads an unsigned LEB128 at `at` of `buffer`: [value, next offset].
const readLeb = (buffer, at) => {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = buffer[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [value, at];
    shift += 7;
  }
};
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

// Short names, in the order of the imports: `a`, `b`, … `Z`, `a0`…, never
// a name the glue's table already uses for something kept.
const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const shortName = (i) => {
  let name = alphabet[i % alphabet.length];
  for (let rest = Math.floor(i / alphabet.length); rest > 0; rest = Math.floor(rest / 36)) {
    name += (rest % 36).toString(36);
  }
  return name;
};

// The import section (id 2): each entry's module and field names, then its
// description, copied as it is.
const renames = new Map();
const sections = [];
let at = 8;
let found = false;
while (at < bytes.length) {
  const id = bytes[at];
  const [size, bodyStart] = readLeb(bytes, at + 1);
  const end = bodyStart + size;
  if (id !== 2) {
    sections.push(bytes.subarray(at, end));
    at = end;
    continue;
  }
  found = true;
  let [count, p] = readLeb(bytes, bodyStart);
  const entries = [leb(count)];
  for (let i = 0; i < count; i++) {
    let length;
    [length, p] = readLeb(bytes, p);
    const module = bytes.subarray(p, p + length).toString();
    p += length;
    [length, p] = readLeb(bytes, p);
    const field = bytes.subarray(p, p + length).toString();
    p += length;
    const descriptionStart = p;
    const kind = bytes[p++];
    if (kind === 0) [, p] = readLeb(bytes, p); // a function: its type
    else if (kind === 1 || kind === 2) {
      if (kind === 1) p++; // a table: its element type
      let flags;
      [flags, p] = readLeb(bytes, p);
      [, p] = readLeb(bytes, p);
      if (flags & 1) [, p] = readLeb(bytes, p);
    } else if (kind === 3) p += 2; // a global: its type and mutability
    else fail(`an import of an unexpected kind (${kind})`);
    let name = field;
    if (module === GLUE_MODULE) {
      name = shortName(renames.size);
      renames.set(field, name);
    }
    entries.push(utf8(module), utf8(name), bytes.subarray(descriptionStart, p));
  }
  if (p !== end) fail('the import section did not read to its end');
  const body = Buffer.concat(entries);
  sections.push(Buffer.concat([Buffer.from([2]), leb(body.length), body]));
  at = end;
}
if (!found || renames.size === 0) fail(`no imports from ${GLUE_MODULE} in ${wasmPath}`);

// The same names in the glue's table, each key once: every import must be
// found there, or the module would not link.
let renamed = table;
for (const [long, short] of renames) {
  const key = new RegExp(String.raw`^(        )${long.replace(/[$]/g, '\\$&')}(: )`, 'm');
  if (!key.test(renamed)) fail(`the import ${long} is not in the glue's table`);
  renamed = renamed.replace(key, `$1${short}$2`);
}
glue = glue.slice(0, tableStart) + renamed + glue.slice(tableEnd);

fs.writeFileSync(wasmPath, Buffer.concat([bytes.subarray(0, 8), ...sections]));
fs.writeFileSync(gluePath, glue);
console.log(`shorten-imports: ${renames.size} imports renamed`);
