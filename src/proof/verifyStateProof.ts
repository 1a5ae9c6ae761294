import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import { sha256 } from "@noble/hashes/sha2.js";
import { decodeTrieNode, TrieNodeDecodeError, type DecodedTrieNode } from "./decodeTrieNode.js";
import { TRIE_HASH_LEN } from "./trieNodeFormat.js";

/** One contract state entry, key relative to the contract (as view_state returns it). */
export interface StateProofEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

export interface VerifyStateProofParameters {
  /** The shard state root the proof must hash-chain to (32 bytes; decode base58 first). */
  readonly stateRoot: Uint8Array;
  /** Contract account whose data is proven. */
  readonly accountId: string;
  /** Key prefix the values were requested under (empty = the whole contract state). */
  readonly prefix: Uint8Array;
  /** The claimed complete contents under the prefix, in raw byte order of keys. */
  readonly values: readonly StateProofEntry[];
  /** Serialized trie nodes, in the order the chain returned them. */
  readonly proof: readonly Uint8Array[];
}

export interface VerifyStateProofReturnType {
  /** Number of entries proven (= values.length). */
  readonly entries: number;
  /** Number of proof nodes checked (= proof.length). */
  readonly nodes: number;
}

export type StateProofErrorCode =
  | "INVALID_INPUT"
  | "HASH_MISMATCH"
  | "MISSING_NODE"
  | "EXTRA_NODES"
  | "MALFORMED_NODE"
  | "VALUES_MISMATCH";

/** Why a state proof was rejected; `code` is stable, `message` is for people. */
export class StateProofError extends ShardkitError<StateProofErrorCode> {
  override readonly name = "StateProofError";
  constructor(code: StateProofErrorCode, message: string) {
    super(code, message);
  }
}

/**
 * Verifies a view_state proof for completeness, not just inclusion: the proof nodes must
 * hash-chain from `stateRoot` in pre-order (the root, the nodes down towards the prefix,
 * then every node of the subtree under it) with no node missing, extra or out of place,
 * and the key/value pairs they contain under `0x09 ‖ accountId ‖ ',' ‖ prefix` must be
 * exactly `values`, in order. An empty state is proven by the path that shows nothing
 * lies under the prefix (or by an empty proof when the whole trie is empty).
 *
 * Returns counts on success; throws {@link StateProofError} on any failure.
 *
 * @example
 * import { verifyStateProof } from "shardkit/proof";
 * verifyStateProof({ stateRoot, accountId: "kv.test.near", prefix: new Uint8Array(), values, proof });
 */
export function verifyStateProof(params: VerifyStateProofParameters): VerifyStateProofReturnType {
  const { stateRoot, accountId, prefix, values, proof } = params;
  if (stateRoot.length !== TRIE_HASH_LEN) {
    throw new StateProofError("INVALID_INPUT", `state root must be ${TRIE_HASH_LEN} bytes, got ${stateRoot.length}`);
  }
  const account = new TextEncoder().encode(accountId);
  // Trie key of the contract's data: 0x09 ‖ account id ‖ ',' ‖ key.
  const accountPrefix = new Uint8Array(account.length + 2);
  accountPrefix[0] = 0x09;
  accountPrefix.set(account, 1);
  accountPrefix[account.length + 1] = 0x2c;
  const fullPrefix = concat(accountPrefix, prefix);

  const walker = new ProofWalker(proof, nibblesOf(fullPrefix), fullPrefix);
  if (stateRoot.every((b) => b === 0)) {
    if (proof.length !== 0) throw new StateProofError("EXTRA_NODES", "the state root is empty but the proof has nodes");
  } else {
    walker.visit(stateRoot, [], false);
    if (walker.next !== proof.length) {
      throw new StateProofError("EXTRA_NODES", `proof has ${proof.length - walker.next} node(s) beyond the proven subtree`);
    }
  }

  const found = walker.found;
  if (found.length !== values.length) {
    throw new StateProofError(
      "VALUES_MISMATCH",
      `the proven state has ${found.length} entr${found.length === 1 ? "y" : "ies"} under the prefix, values has ${values.length}`,
    );
  }
  for (const [i, want] of found.entries()) {
    const got = values[i];
    if (got === undefined || !equal(want.key.subarray(accountPrefix.length), got.key)) {
      throw new StateProofError("VALUES_MISMATCH", `values[${i}]: key differs from the proven state`);
    }
    if (!equal(want.value, got.value)) {
      throw new StateProofError("VALUES_MISMATCH", `values[${i}]: value differs from the proven state`);
    }
  }
  return { entries: found.length, nodes: proof.length };
}

class ProofWalker {
  next = 0;
  readonly found: { key: Uint8Array; value: Uint8Array }[] = [];

  constructor(
    private readonly proof: readonly Uint8Array[],
    private readonly prefixNibbles: Uint8Array,
    private readonly prefixBytes: Uint8Array,
  ) {}

  /** Consumes the next proof node, which must hash to `expected`, and walks below it. */
  visit(expected: Uint8Array, path: number[], parentIsExtension: boolean): void {
    const index = this.next;
    const bytes = this.proof[index];
    if (bytes === undefined) {
      throw new StateProofError("MISSING_NODE", `proof ends after ${index} node(s); a node is still needed`);
    }
    this.next++;
    if (!equal(sha256(bytes), expected)) {
      throw new StateProofError(
        "HASH_MISMATCH",
        index === 0
          ? "proof node 0 does not hash to the state root"
          : `proof node ${index} does not hash to the hash its parent commits to`,
      );
    }
    let node: DecodedTrieNode;
    try {
      node = decodeTrieNode(bytes);
    } catch (e) {
      if (e instanceof TrieNodeDecodeError) throw new StateProofError("MALFORMED_NODE", `proof node ${index}: ${e.message}`);
      throw e;
    }
    if (parentIsExtension && node.kind !== "branch") {
      throw new StateProofError("MALFORMED_NODE", `proof node ${index}: an extension must point to a branch`);
    }
    const depth = path.length;
    const inside = depth >= this.prefixNibbles.length; // whole subtree lies under the prefix

    if (node.kind === "leaf") {
      const key = bytesOf(path, node.path, index);
      if (startsWith(key, this.prefixBytes)) this.found.push({ key, value: node.value });
      return;
    }
    if (node.kind === "extension") {
      if (!inside) {
        const within = Math.min(node.path.length, this.prefixNibbles.length - depth);
        for (let i = 0; i < within; i++) if (node.path[i] !== this.prefixNibbles[depth + i]) return;
      }
      const before = path.length;
      for (const n of node.path) path.push(n);
      this.visit(node.child, path, true);
      path.length = before;
      return;
    }
    if (inside && node.value !== undefined) {
      this.found.push({ key: bytesOf(path, new Uint8Array(0), index), value: node.value });
    }
    for (let n = 0; n < 16; n++) {
      const child = node.children[n];
      if (child === undefined) continue;
      if (!inside && n !== this.prefixNibbles[depth]) continue;
      path.push(n);
      this.visit(child, path, false);
      path.pop();
    }
  }
}

function nibblesOf(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length * 2);
  for (const [i, byte] of bytes.entries()) {
    out[2 * i] = byte >> 4;
    out[2 * i + 1] = byte & 15;
  }
  return out;
}

/** Joins nibble paths into whole bytes; an odd total means the node claims a half-byte key. */
function bytesOf(path: readonly number[], tail: Uint8Array, index: number): Uint8Array {
  const total = path.length + tail.length;
  if ((total & 1) === 1) throw new StateProofError("MALFORMED_NODE", `proof node ${index}: key is not a whole number of bytes`);
  const out = new Uint8Array(total / 2);
  let high = 0;
  for (const [i, n] of [...path, ...tail].entries()) {
    if ((i & 1) === 0) high = n << 4;
    else out[i >> 1] = high | n;
  }
  return out;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
