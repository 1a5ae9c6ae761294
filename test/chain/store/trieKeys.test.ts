import { describe, expect, it } from "vitest";
import { KeyType } from "@shardkit/primitives/publicKey";
import { accessKeyTrieKey, accountTrieKey, contractCodeTrieKey, contractDataTrieKey, withTail } from "../../../src/chain/store/trieKeys.js";

const hex = (latin1: string) => Buffer.from(latin1, "latin1").toString("hex");
const ascii = (s: string) => Buffer.from(s).toString("hex");

describe("trie keys (nearcore trie_key.rs layout)", () => {
  it("spells each column's key byte for byte", () => {
    expect(hex(accountTrieKey("a.near"))).toBe("00" + ascii("a.near"));
    expect(hex(contractCodeTrieKey("a.near"))).toBe("01" + ascii("a.near"));
    const ed = { keyType: KeyType.ED25519, data: new Uint8Array(32).fill(0xab) };
    expect(hex(accessKeyTrieKey("a.near", ed))).toBe("02" + ascii("a.near,") + "00" + "ab".repeat(32));
    const secp = { keyType: KeyType.SECP256K1, data: new Uint8Array(64).fill(0xcd) };
    expect(hex(accessKeyTrieKey("b.near", secp))).toBe("02" + ascii("b.near,") + "01" + "cd".repeat(64));
    expect(hex(contractDataTrieKey("a.near", Uint8Array.of(0, 255, 7)))).toBe("09" + ascii("a.near,") + "00ff07");
  });

  it("builds keys longer than its reused buffer, and each key is its own string", () => {
    const long = new Uint8Array(10_000).fill(1);
    expect(hex(contractDataTrieKey("c.near", long))).toBe("09" + ascii("c.near,") + "01".repeat(10_000));
    const first = withTail("x", Uint8Array.of(1, 2));
    const second = withTail("yy", Uint8Array.of(3));
    expect([hex(first), hex(second)]).toEqual(["780102", "797903"]);
  });
});
