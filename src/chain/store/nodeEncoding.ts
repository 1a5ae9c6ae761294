import { hash } from "node:crypto";
import { TrieNodeTag } from "../../proof/trieNodeFormat.js";
import { nibbleAt } from "./nibbles.js";
import { BranchNode, ExtensionNode, HashNode, LeafNode, type LoadedNode, type TrieNode } from "./trieNode.js";

/*
 * Encoder and hasher for the node format defined in src/proof/trieNodeFormat.ts.
 * Encoding goes into one reusable scratch buffer: hashing 10^6 nodes must not allocate a
 * buffer per node. Child hashes are computed before a node starts writing, so recursion
 * never overwrites a half-written encoding.
 */

let scratch = Buffer.allocUnsafe(1 << 16);
// Cached views scratch[0, len) for short encodings: most nodes of a trie share a handful
// of encoding lengths, and creating a Buffer view per hash call is measurable.
let views: Buffer[] = [];
const MAX_CACHED_VIEW = 1024;

function ensure(n: number): void {
  if (scratch.length < n) {
    scratch = Buffer.allocUnsafe(Math.max(n, scratch.length * 2));
    views = [];
  }
}

function view(len: number): Buffer {
  if (len > MAX_CACHED_VIEW) return scratch.subarray(0, len);
  let v = views[len];
  if (v === undefined) {
    v = scratch.subarray(0, len);
    views[len] = v;
  }
  return v;
}

/** Writes nibbles [from, to) of a latin1 key, packed, at `off`; returns the new offset. */
function writeKeyNibbles(key: string, from: number, to: number, off: number): number {
  const count = to - from;
  scratch.writeUInt32LE(count, off);
  off += 4;
  if ((from & 1) === 0) {
    // Byte-aligned: copy whole bytes, then clear the unused low half of an odd tail.
    const bytes = (count + 1) >> 1;
    const start = from >> 1;
    if (bytes < 64) for (let i = 0; i < bytes; i++) scratch[off + i] = key.charCodeAt(start + i);
    else scratch.write(key.slice(start, start + bytes), off, "latin1");
    if ((count & 1) === 1) scratch[off + bytes - 1]! &= 0xf0;
    return off + bytes;
  }
  for (let i = 0; i < count; i += 2) {
    const hi = nibbleAt(key, from + i);
    const lo = i + 1 < count ? nibbleAt(key, from + i + 1) : 0;
    scratch[off++] = (hi << 4) | lo;
  }
  return off;
}

function writePathNibbles(path: string, off: number): number {
  scratch.writeUInt32LE(path.length, off);
  off += 4;
  for (let i = 0; i < path.length; i += 2) {
    const hi = path.charCodeAt(i);
    const lo = i + 1 < path.length ? path.charCodeAt(i + 1) : 0;
    scratch[off++] = (hi << 4) | lo;
  }
  return off;
}

function writeValue(value: string, off: number): number {
  scratch.writeUInt32LE(value.length, off);
  off += 4;
  // Short strings: a JS loop beats the native call overhead of Buffer#write.
  if (value.length < 64) {
    for (let i = 0; i < value.length; i++) scratch[off + i] = value.charCodeAt(i);
    return off + value.length;
  }
  return off + scratch.write(value, off, "latin1");
}

/** Copies a 32-char latin1 hash into the scratch buffer. */
function writeHash(h: string, off: number): number {
  for (let i = 0; i < 32; i++) scratch[off + i] = h.charCodeAt(i);
  return off + 32;
}

/** Encodes `node` into the scratch buffer (children must already be hashed); returns length. */
function encodeIntoScratch(node: LoadedNode): number {
  if (node instanceof LeafNode) {
    const nibbles = node.key.length * 2 - node.depth;
    ensure(10 + (nibbles >> 1) + node.value.length);
    scratch[0] = TrieNodeTag.LEAF;
    const off = writeKeyNibbles(node.key, node.depth, node.key.length * 2, 1);
    return writeValue(node.value, off);
  }
  if (node instanceof ExtensionNode) {
    ensure(38 + (node.path.length >> 1));
    scratch[0] = TrieNodeTag.EXTENSION;
    const off = writePathNibbles(node.path, 1);
    return writeHash(node.child.hash!, off);
  }
  ensure(8 + 32 * node.children.length + (node.value?.length ?? 0));
  scratch[0] = TrieNodeTag.BRANCH;
  scratch.writeUInt16LE(node.mask, 1);
  let off = 3;
  for (const child of node.children) off = writeHash(child.hash!, off);
  if (node.value === undefined) {
    scratch[off++] = 0;
    return off;
  }
  scratch[off++] = 1;
  return writeValue(node.value, off);
}

function hashChildren(node: TrieNode): void {
  if (node instanceof ExtensionNode) nodeHash(node.child);
  else if (node instanceof BranchNode) for (const child of node.children) nodeHash(child);
}

/** sha256 of the node's encoding as a 32-char latin1 string, memoised on the node. */
export function nodeHash(node: TrieNode): string {
  if (node.hash !== undefined || node instanceof HashNode) return node.hash!;
  hashChildren(node);
  const len = encodeIntoScratch(node);
  const h = hash("sha256", view(len), "binary");
  node.hash = h;
  return h;
}

/** The canonical encoding of `node` (a fresh copy), as it appears in proofs. */
export function encodeNode(node: LoadedNode): Uint8Array {
  hashChildren(node);
  const len = encodeIntoScratch(node);
  return new Uint8Array(scratch.subarray(0, len));
}

/**
 * Hashes `node` (whose children must already be hashed), memoises the hash and hands the
 * encoding to `sink` before returning the hash. The encoding is a view of a shared scratch
 * buffer: `sink` must copy it before the next encode.
 */
export function hashEncoded(node: LoadedNode, sink: (hash: string, encoding: Uint8Array) => void): string {
  const len = encodeIntoScratch(node);
  const encoding = view(len);
  const h = hash("sha256", encoding, "binary");
  node.hash = h;
  sink(h, encoding);
  return h;
}
