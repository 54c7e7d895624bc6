// Reads the parts of a wasm binary the bundle's scripts look into: its
// sections, and its imports (scripts/shorten-imports.mjs,
// scripts/stub-unused-code.mjs). The format: the WebAssembly binary
// specification, and the tool conventions for the linker's sections.

/// A cursor over `bytes`, from `at`.
export class Reader {
  constructor(bytes, at = 0) {
    this.bytes = bytes;
    this.at = at;
  }

  byte() {
    return this.bytes[this.at++];
  }

  /// An unsigned LEB128 (a signed one is skipped by it just as well).
  leb() {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = this.bytes[this.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
  }

  /// A name: its length, then its UTF-8 bytes.
  name() {
    const length = this.leb();
    this.at += length;
    return this.bytes.subarray(this.at - length, this.at).toString();
  }
}

/// The sections of the module `bytes`, in order: `id`, `name` for a custom
/// one (id 0), `start` and `end` of the whole section, `body` where its
/// contents start (after a custom section's name).
export function sections(bytes) {
  const found = [];
  const reader = new Reader(bytes, 8);
  while (reader.at < bytes.length) {
    const start = reader.at;
    const id = reader.byte();
    const size = reader.leb();
    const end = reader.at + size;
    const name = id === 0 ? reader.name() : null;
    found.push({ id, name, start, end, body: reader.at });
    reader.at = end;
  }
  return found;
}

/// The entries of an import section whose contents start at `body`:
/// `module`, `field`, `kind` (0 a function, 1 a table, 2 a memory, 3 a
/// global) and where its description starts and ends; `end` after the last.
export function imports(bytes, body) {
  const reader = new Reader(bytes, body);
  const entries = [];
  for (let count = reader.leb(); count > 0; count--) {
    const module = reader.name();
    const field = reader.name();
    const descriptionStart = reader.at;
    const kind = reader.byte();
    if (kind === 0) reader.leb(); // its type
    else if (kind === 1 || kind === 2) {
      if (kind === 1) reader.byte(); // the table's element type
      const flags = reader.leb();
      reader.leb();
      if (flags & 1) reader.leb();
    } else if (kind === 3) reader.at += 2; // the global's type and mutability
    else throw new Error(`an import of an unexpected kind (${kind})`);
    entries.push({ module, field, kind, descriptionStart, descriptionEnd: reader.at });
  }
  return { entries, end: reader.at };
}
