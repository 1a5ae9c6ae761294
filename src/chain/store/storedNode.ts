import { TrieNodeTag } from "../../proof/trieNodeFormat.js";
import { flatConcat } from "./flatConcat.js";
import { BranchNode, ExtensionNode, HashNode, LeafNode, type LoadedNode, type NodePath, type NodeSource } from "./trieNode.js";
import { byteAt } from "../must.js";

/**
 * A leaf as read from disk. The stored bytes are the canonical encoding (what the hash covers),
 * which keeps just the part of the key below the leaf (`rest`); the same node may sit under many
 * paths (two accounts with the same key and value below them), so the full key depends on where
 * it is reached (see placeNode). A leaf is decoded where a walk reached it and is itself the
 * placed leaf there (nearly every leaf has a single position): a walk that meets it again goes
 * from the cache entry straight to its key, with no second object and no join.
 */
export class StoredLeaf extends LeafNode {
  /** The last placement at another position (a leaf shared between paths). */
  elsewhere: LeafNode | undefined = undefined;
  constructor(
    /** The full key where decoded ("" with depth -1 when decoded without a position: never matched). */
    key: string,
    value: string,
    depth: number,
    /** The leaf's nibbles, packed two per byte, high half first. */
    readonly rest: string,
    readonly nibbles: number,
  ) {
    super(key, value, depth);
  }
}

/** Leaves carry their first position; extensions and value-less branches are used as they are. */
export type StoredNode = StoredLeaf | ExtensionNode | BranchNode;

/**
 * Decodes the canonical encoding of a node stored under `hash`; children become references into
 * `source`. A leaf takes its key from `at` (as in NodeSource.load), when given.
 */
export function decodeStoredNode(bytes: Uint8Array, hash: string, source: NodeSource, at?: string | NodePath, depth = 0): StoredNode {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = buf[0];
  if (tag === TrieNodeTag.LEAF) {
    const nibbles = buf.readUInt32LE(1);
    const end = 5 + ((nibbles + 1) >> 1);
    const length = buf.readUInt32LE(end);
    const rest = buf.toString("latin1", 5, end);
    const value = buf.toString("latin1", end + 4, end + 4 + length);
    const leaf =
      at === undefined
        ? new StoredLeaf("", value, -1, rest, nibbles)
        : new StoredLeaf(leafKey(typeof at === "string" ? at : at.path(depth), depth, rest, nibbles), value, depth, rest, nibbles);
    leaf.hash = hash;
    return leaf;
  }
  if (tag === TrieNodeTag.EXTENSION) {
    const count = buf.readUInt32LE(1);
    let path = "";
    for (let i = 0; i < count; i++) {
      const b = byteAt(buf, 5 + (i >> 1));
      path += String.fromCharCode((i & 1) === 0 ? b >> 4 : b & 15);
    }
    const off = 5 + ((count + 1) >> 1);
    const node = new ExtensionNode(path, new HashNode(buf.toString("latin1", off, off + 32), source));
    node.hash = hash;
    return node;
  }
  if (tag === TrieNodeTag.BRANCH) {
    const mask = buf.readUInt16LE(1);
    const children: HashNode[] = [];
    let off = 3;
    for (let n = 0; n < 16; n++) {
      if (((mask >> n) & 1) === 0) continue;
      children.push(new HashNode(buf.toString("latin1", off, off + 32), source));
      off += 32;
    }
    let value: string | undefined;
    if (buf[off] === 1) {
      const length = buf.readUInt32LE(off + 1);
      value = buf.toString("latin1", off + 5, off + 5 + length);
    }
    // valueKey depends on the path: placeNode fills it in.
    const node = new BranchNode(mask, children, value, undefined);
    node.hash = hash;
    return node;
  }
  throw new Error(`stored trie node ${Buffer.from(hash, "latin1").toString("hex")} has unknown tag ${String(tag)}`);
}

/** The stored node as it sits `depth` nibbles down `path` (see NodeSource.load). */
export function placeNode(stored: StoredNode, hash: string, at: string | NodePath, depth: number): LoadedNode {
  if (stored instanceof StoredLeaf) {
    if (placedAt(stored, at, depth)) return stored;
    const last = stored.elsewhere;
    if (last !== undefined && placedAt(last, at, depth)) return last;
    const path = typeof at === "string" ? at : at.path(depth);
    const leaf = new LeafNode(leafKey(path, depth, stored.rest, stored.nibbles), stored.value, depth);
    leaf.hash = hash;
    stored.elsewhere = leaf;
    return leaf;
  }
  if (stored instanceof BranchNode && stored.value !== undefined) {
    // A key ending at a branch ends on a byte boundary: it is the path itself.
    const key = typeof at === "string" ? at.slice(0, depth >> 1) : at.path(depth);
    const branch = new BranchNode(stored.mask, stored.children, stored.value, key);
    branch.hash = hash;
    return branch;
  }
  return stored;
}

/** True when `leaf` sits `depth` nibbles down `at`. */
function placedAt(leaf: LeafNode, at: string | NodePath, depth: number): boolean {
  return leaf.depth === depth && (typeof at === "string" ? samePosition(leaf.key, at, depth) : at.leads(leaf.key, depth));
}

/** True when `key` starts with the first `depth` nibbles of `path`. */
function samePosition(key: string, path: string, depth: number): boolean {
  const whole = depth >> 1;
  if (whole > 0 && !key.startsWith(whole === path.length ? path : path.slice(0, whole))) return false;
  return (depth & 1) === 0 || (key.charCodeAt(whole) & 0xf0) === (path.charCodeAt(whole) & 0xf0);
}

/**
 * First `depth` nibbles of `path` followed by the leaf's nibbles, as a flat latin1 key: a
 * placed leaf is kept (StoredLeaf.placed) and its key read on every page (position checks,
 * cursor comparisons, slicing), which a V8 rope would route through its halves.
 */
function leafKey(path: string, depth: number, rest: string, nibbles: number): string {
  const head = path.slice(0, depth >> 1);
  if ((depth & 1) === 0) return flatConcat(head, rest);
  // Odd depth: every byte straddles the path and the leaf by one nibble.
  const tail = Buffer.allocUnsafe((nibbles + 1) >> 1);
  let high = path.charCodeAt(depth >> 1) & 0xf0;
  for (let i = 0; i < nibbles; i++) {
    const b = rest.charCodeAt(i >> 1);
    const nibble = (i & 1) === 0 ? b >> 4 : b & 15;
    if ((i & 1) === 0) tail[i >> 1] = high | nibble;
    else high = nibble << 4;
  }
  return flatConcat(head, tail.toString("latin1"));
}

/** Rough heap bytes a decoded node takes (for the cache budget); a leaf also holds its full key. */
export function storedNodeSize(stored: StoredNode, encodedLength: number): number {
  const children = stored instanceof BranchNode ? stored.children.length : stored instanceof ExtensionNode ? 1 : 0;
  const key = stored instanceof StoredLeaf ? 16 + stored.key.length : 0;
  return 96 + 2 * encodedLength + 88 * children + key;
}
