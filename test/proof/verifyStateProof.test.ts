import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Trie } from "../../src/chain/store/Trie.js";
import { ChangeSet } from "../../src/chain/store/changeSet.js";
import { contractDataPrefix } from "../../src/chain/store/trieKeys.js";
import { decodeTrieNode } from "../../src/proof/decodeTrieNode.js";
import { StateProofError, verifyStateProof, type StateProofEntry } from "../../src/proof/verifyStateProof.js";

const ACCOUNT = "kv.test.near";
const base = contractDataPrefix(ACCOUNT);
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));

/** Expected view_state values under `prefix` for a trie, straight from its entries. */
function expected(trie: Trie, prefix: Uint8Array): StateProofEntry[] {
  const full = base + Buffer.from(prefix).toString("latin1");
  return trie.entries(full).map(([k, v]) => ({ key: latin1(k.slice(base.length)), value: latin1(v) }));
}

function fullPrefix(prefix: Uint8Array): string {
  return base + Buffer.from(prefix).toString("latin1");
}

/** A trie with the contract's data plus neighbours that share leading bytes with it. */
function sampleTrie(): Trie {
  const cs = new ChangeSet();
  cs.set("\x00kv.test.near", "account");
  cs.set("\x02kv.test.near,\x00key", "ak");
  cs.set("\x09kv.test.nea", "neighbour-shorter");
  cs.set("\x09kv.test.near.x,a", "neighbour-sub-account");
  for (const k of ["a", "a1", "a2", "ab", "b", "b\x80", "b\xff\x00", "c"]) cs.set(base + k, `v:${k}`);
  return Trie.EMPTY.apply(cs.toSorted());
}

function verify(trie: Trie, prefix: Uint8Array, values: StateProofEntry[], proof: Uint8Array[], root = trie.rootHash()) {
  return verifyStateProof({ stateRoot: root, accountId: ACCOUNT, prefix, values, proof });
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof StateProofError) return e.code;
    throw e;
  }
  return "OK";
}

describe("verifyStateProof", () => {
  const trie = sampleTrie();

  it("accepts complete contents for the whole state and for narrower prefixes", () => {
    for (const p of ["", "a", "b", "b\xff", "a1", "zz"]) {
      const prefix = latin1(p);
      const values = expected(trie, prefix);
      const proof = trie.prove(fullPrefix(prefix));
      expect(verify(trie, prefix, values, proof)).toEqual({ entries: values.length, nodes: proof.length });
    }
    expect(expected(trie, latin1("")).map((e) => Buffer.from(e.key).toString("latin1"))).toEqual([
      "a", "a1", "a2", "ab", "b", "b\x80", "b\xff\x00", "c",
    ]);
  });

  it("proves an empty state: absent prefix, account without data, and an empty trie", () => {
    const none = latin1("zz");
    expect(verify(trie, none, [], trie.prove(fullPrefix(none))).entries).toBe(0);
    const other = verifyStateProof({
      stateRoot: trie.rootHash(),
      accountId: "alice.test.near",
      prefix: new Uint8Array(),
      values: [],
      proof: trie.prove(contractDataPrefix("alice.test.near")),
    });
    expect(other.entries).toBe(0);
    expect(verify(Trie.EMPTY, new Uint8Array(), [], [])).toEqual({ entries: 0, nodes: 0 });
    expect(codeOf(() => verify(Trie.EMPTY, new Uint8Array(), [], trie.prove(base)))).toBe("EXTRA_NODES");
  });

  describe("rejects", () => {
    const prefix = new Uint8Array();
    const values = expected(trie, prefix);
    const proof = trie.prove(base);

    it("a tampered value", () => {
      const bad = values.map((e, i) => (i === 2 ? { key: e.key, value: latin1("v:XX") } : e));
      expect(codeOf(() => verify(trie, prefix, bad, proof))).toBe("VALUES_MISMATCH");
    });

    it("a tampered key", () => {
      const bad = values.map((e, i) => (i === 2 ? { key: latin1("a3"), value: e.value } : e));
      expect(codeOf(() => verify(trie, prefix, bad, proof))).toBe("VALUES_MISMATCH");
    });

    it("a dropped value (completeness)", () => {
      expect(codeOf(() => verify(trie, prefix, values.slice(0, -1), proof))).toBe("VALUES_MISMATCH");
      expect(codeOf(() => verify(trie, prefix, values.slice(1), proof))).toBe("VALUES_MISMATCH");
    });

    it("an extra value", () => {
      const bad = [...values, { key: latin1("d"), value: latin1("v:d") }];
      expect(codeOf(() => verify(trie, prefix, bad, proof))).toBe("VALUES_MISMATCH");
    });

    it("values out of order", () => {
      const bad = [values[1]!, values[0]!, ...values.slice(2)];
      expect(codeOf(() => verify(trie, prefix, bad, proof))).toBe("VALUES_MISMATCH");
    });

    it("a tampered proof node (and a value forged to match it)", () => {
      // Flip the last byte of the last node: a leaf value, so the encoding stays well-formed.
      const last = proof.length - 1;
      const forged = proof.map((n, i) => (i === last ? n.map((b, j) => (j === n.length - 1 ? b ^ 1 : b)) : n));
      expect(codeOf(() => verify(trie, prefix, values, forged))).toBe("HASH_MISMATCH");
    });

    it("a missing proof node", () => {
      expect(codeOf(() => verify(trie, prefix, values, proof.slice(0, -1)))).toBe("MISSING_NODE");
      expect(codeOf(() => verify(trie, prefix, values, [proof[0]!, ...proof.slice(2)]))).toBe("HASH_MISMATCH");
    });

    it("reordered proof nodes", () => {
      const swapped = [...proof];
      [swapped[1], swapped[2]] = [swapped[2]!, swapped[1]!];
      expect(codeOf(() => verify(trie, prefix, values, swapped))).toBe("HASH_MISMATCH");
    });

    it("an extra proof node", () => {
      expect(codeOf(() => verify(trie, prefix, values, [...proof, proof[0]!]))).toBe("EXTRA_NODES");
    });

    it("a wrong state root", () => {
      const root = trie.rootHash();
      root[0]! ^= 1;
      expect(codeOf(() => verify(trie, prefix, values, proof, root))).toBe("HASH_MISMATCH");
      // A root of another version of the state is wrong too.
      const newer = trie.apply({ keys: [base + "a"], values: ["changed"] });
      expect(codeOf(() => verify(trie, prefix, values, proof, newer.rootHash()))).toBe("HASH_MISMATCH");
      expect(codeOf(() => verify(trie, prefix, values, proof, new Uint8Array(31)))).toBe("INVALID_INPUT");
    });

    it("a proof for a different prefix that omits part of the subtree", () => {
      // Proof of "a" does not cover "b…": claiming the whole state with it must fail.
      const partial = trie.prove(fullPrefix(latin1("a")));
      expect(codeOf(() => verify(trie, prefix, values, partial))).not.toBe("OK");
    });
  });

  it("round-trips random states and prefixes (property)", () => {
    const byte = fc.constantFrom(0x00, 0x2c, 0x61, 0x62, 0x80, 0xff);
    const bytes = fc.array(byte, { maxLength: 4 }).map((b) => Buffer.from(b).toString("latin1"));
    fc.assert(
      fc.property(fc.uniqueArray(bytes, { maxLength: 20 }), fc.uniqueArray(bytes, { maxLength: 5 }), bytes, (ours, others, p) => {
        const cs = new ChangeSet();
        for (const k of ours) cs.set(base + k, `v${k}`);
        for (const k of others) cs.set("\x09kv.test.nea" + k, "x"); // shares all but the last bytes
        const t = Trie.EMPTY.apply(cs.toSorted());
        const prefix = latin1(p);
        const values = expected(t, prefix);
        const proof = t.prove(fullPrefix(prefix));
        expect(verify(t, prefix, values, proof).entries).toBe(values.length);
        if (values.length > 0) expect(codeOf(() => verify(t, prefix, values.slice(1), proof))).toBe("VALUES_MISMATCH");
        for (const node of proof) decodeTrieNode(node); // every node is canonical
      }),
      { numRuns: 300 },
    );
  });
});
