import { ByteReader } from "../../../../src/chain/vm/wasm/byteReader.js";
import { ByteWriter } from "../../../../src/chain/vm/wasm/byteWriter.js";
import { decodeModule, encodeModule } from "../../../../src/chain/vm/wasm/wasmModule.js";
import { wat } from "../wasm/watFixture.js";

/**
 * WAT compiled to the bytes nearcore's tests compile it to (the Rust `wat` crate), so that the
 * contract-loading fee (per byte) matches: names of `$identifiers` are kept in a "name"
 * section, but unlike wabt's debug names without empty local-name entries.
 */
export async function nearcoreWat(source: string): Promise<Uint8Array> {
  const bytes = await wat(source, {}, true);
  const module = decodeModule(bytes);
  module.customSections = module.customSections.flatMap((section) => {
    if (section.name !== "name") return [section];
    const payload = rewriteNameSection(section.payload);
    return payload.length === 0 ? [] : [{ ...section, payload }];
  });
  return encodeModule(module);
}

function rewriteNameSection(payload: Uint8Array): Uint8Array {
  const reader = new ByteReader(payload);
  const out = new ByteWriter();
  while (!reader.eof) {
    const id = reader.u8();
    const content = reader.take(reader.varU32());
    if (id !== 2) {
      out.u8(id).varU32(content.length).bytes(content);
      continue;
    }
    // Local names: keep only functions that name at least one local.
    const locals = new ByteReader(content);
    const kept: Uint8Array[] = [];
    const count = locals.varU32();
    for (let i = 0; i < count; i++) {
      const start = locals.position;
      locals.varU32(); // function index
      const names = locals.varU32();
      for (let j = 0; j < names; j++) {
        locals.varU32();
        locals.name();
      }
      if (names > 0) kept.push(content.subarray(start, locals.position));
    }
    if (kept.length === 0) continue;
    const sub = new ByteWriter().varU32(kept.length);
    for (const entry of kept) sub.bytes(entry);
    const subBytes = sub.finish();
    out.u8(id).varU32(subBytes.length).bytes(subBytes);
  }
  return out.finish();
}
