import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import { TRIE_HASH_LEN, TrieNodeTag } from "./trieNodeFormat.js";

/** A decoded trie node. Paths are arrays of nibbles (0..15). */
export type DecodedTrieNode =
  | { readonly kind: "leaf"; readonly path: Uint8Array; readonly value: Uint8Array }
  | { readonly kind: "extension"; readonly path: Uint8Array; readonly child: Uint8Array }
  | {
      readonly kind: "branch";
      /** Child hashes by nibble; `undefined` where there is no child. */
      readonly children: readonly (Uint8Array | undefined)[];
      readonly value: Uint8Array | undefined;
    };

/** Thrown for bytes that are not exactly one canonical node encoding. */
export class TrieNodeDecodeError extends ShardkitError<"INVALID_TRIE_NODE"> {
  override readonly name = "TrieNodeDecodeError";
  constructor(message: string) {
    super("INVALID_TRIE_NODE", message);
  }
}

/**
 * Decodes one node (format in trieNodeFormat.ts), strictly: truncation, trailing bytes,
 * a non-zero padding nibble, an empty extension path or a branch that a canonical trie
 * would not contain (fewer than two entries, or one child and no value) are all rejected.
 */
export function decodeTrieNode(bytes: Uint8Array): DecodedTrieNode {
  const r = new Reader(bytes);
  const tag = r.u8();
  let node: DecodedTrieNode;
  if (tag === TrieNodeTag.LEAF) {
    const path = r.path();
    node = { kind: "leaf", path, value: r.take(r.u32()) };
  } else if (tag === TrieNodeTag.EXTENSION) {
    const path = r.path();
    if (path.length === 0) throw new TrieNodeDecodeError("extension node with an empty path");
    node = { kind: "extension", path, child: r.take(TRIE_HASH_LEN) };
  } else if (tag === TrieNodeTag.BRANCH) {
    const mask = r.u16();
    const children: (Uint8Array | undefined)[] = [];
    let count = 0;
    for (let n = 0; n < 16; n++) {
      if ((mask >> n) & 1) {
        children.push(r.take(TRIE_HASH_LEN));
        count++;
      } else {
        children.push(undefined);
      }
    }
    const flag = r.u8();
    if (flag > 1) throw new TrieNodeDecodeError(`branch value flag must be 0 or 1, got ${flag}`);
    const value = flag === 1 ? r.take(r.u32()) : undefined;
    if (count === 0 || (count === 1 && value === undefined)) {
      throw new TrieNodeDecodeError("non-canonical branch (should have been a leaf or an extension)");
    }
    node = { kind: "branch", children, value };
  } else {
    throw new TrieNodeDecodeError(`unknown node tag ${tag}`);
  }
  r.end();
  return node;
}

class Reader {
  private off = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number): void {
    if (this.off + n > this.bytes.length) throw new TrieNodeDecodeError("truncated trie node");
  }

  u8(): number {
    this.need(1);
    return this.view.getUint8(this.off++);
  }

  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.off, true);
    this.off += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.off, true);
    this.off += 4;
    return v;
  }

  take(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.slice(this.off, this.off + n);
    this.off += n;
    return out;
  }

  path(): Uint8Array {
    const count = this.u32();
    const packed = this.take(Math.ceil(count / 2));
    const out = new Uint8Array(count);
    for (const [j, byte] of packed.entries()) {
      out[2 * j] = byte >> 4;
      if (2 * j + 1 < count) out[2 * j + 1] = byte & 15;
      else if ((byte & 15) !== 0) throw new TrieNodeDecodeError("non-zero padding nibble in node path");
    }
    return out;
  }

  end(): void {
    if (this.off !== this.bytes.length) {
      throw new TrieNodeDecodeError(`${this.bytes.length - this.off} trailing bytes after trie node`);
    }
  }
}
