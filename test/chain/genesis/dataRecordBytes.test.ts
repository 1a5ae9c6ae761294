import { describe, expect, it } from "vitest";
import { DataRecordReader } from "../../../src/chain/genesis/dataRecordBytes.js";
import { parseStateRecord } from "../../../src/chain/genesis/stateRecord.js";

/** What the JSON path makes of the same text: the record, or its error message. */
function viaJson(text: string): unknown {
  try {
    return parseStateRecord(JSON.parse(text), 7);
  } catch (e) {
    return (e as Error).message;
  }
}

const reader = new DataRecordReader();
const dataRecordFromBytes = (bytes: Buffer) => reader.read(bytes);
const plain = '{"Data":{"account_id":"kv.test.near","data_key":"a2V5","value":"dmFsdWU="}}';

describe("Data records read from their bytes", () => {
  it.each([
    ["the compact spelling", plain],
    ["nearcore's pretty-printed spelling", '{\n  "Data": {\n    "account_id": "kv.test.near",\n    "data_key": "a2V5",\n    "value": "dmFsdWU="\n  }\n}'],
    ["fields in another order", '{"Data":{"value":"","data_key":"AA==","account_id":"a.near"}}'],
    ["tabs and CRs", '\t{"Data"\r\n:{"account_id" : "x.near" ,"data_key":"a2V5","value":"dmFsdWU="}  }\t'],
  ])("takes %s and decodes it as the JSON path does", (_, text) => {
    const fast = dataRecordFromBytes(Buffer.from(text));
    expect(fast).toBeDefined();
    expect(fast).toEqual(viaJson(text));
  });

  it.each([
    ["an escape in a string", '{"Data":{"account_id":"kv.test.near","data_key":"a2V5","value":"dmFs\\u0064WU="}}'],
    ["an escaped kind", '{"D\\u0061ta":{"account_id":"kv.test.near","data_key":"a2V5","value":"dmFsdWU="}}'],
    ["a repeated field", '{"Data":{"account_id":"kv.test.near","data_key":"a2V5","data_key":"dmFsdWU="}}'],
    ["a fourth field", '{"Data":{"account_id":"kv.test.near","data_key":"a2V5","value":"dmFsdWU=","x":"y"}}'],
    ["a missing field", '{"Data":{"account_id":"kv.test.near","data_key":"a2V5"}}'],
    ["a second kind", '{"Data":{"account_id":"kv.test.near","data_key":"a2V5","value":"dmFsdWU="},"Data":{}}'],
    ["another kind", '{"Contract":{"account_id":"kv.test.near","code":"AGFzbQ=="}}'],
    ["an invalid account id", '{"Data":{"account_id":"KV.near","data_key":"a2V5","value":"dmFsdWU="}}'],
    ["non-canonical base64", '{"Data":{"account_id":"kv.test.near","data_key":"a2V=","value":"dmFsdWU="}}'],
    ["base64 without padding", '{"Data":{"account_id":"kv.test.near","data_key":"a2V5","value":"dmFsdWU"}}'],
    ["a number for a string", '{"Data":{"account_id":"kv.test.near","data_key":"a2V5","value":5}}'],
    ["non-ASCII", '{"Data":{"account_id":"kv.test.near","data_key":"a2V5","value":"dmFsdWU=é"}}'],
    ["trailing bytes", `${plain}x`],
    ["a cut record", plain.slice(0, -1)],
  ])("leaves %s to the JSON path", (_, text) => {
    expect(dataRecordFromBytes(Buffer.from(text))).toBeUndefined();
  });

  it("never disagrees with the JSON path on mutated records (seeded, 20,000 cases)", () => {
    let seed = 0x5eed;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    const alphabet = ' \n"{}:,\\=+/AZaz09.-_éDatv';
    let taken = 0;
    for (let i = 0; i < 20_000; i++) {
      const chars = [...plain];
      for (let m = 1 + rand(3); m > 0; m--) {
        const at = rand(chars.length + 1);
        const c = alphabet[rand(alphabet.length)]!;
        const op = rand(3);
        if (op === 0) chars.splice(at, 0, c);
        else if (op === 1) chars.splice(at, 1);
        else chars[at] = c;
      }
      const text = chars.join("");
      const fast = dataRecordFromBytes(Buffer.from(text));
      if (fast === undefined) continue;
      taken++;
      expect(fast, text).toEqual(viaJson(text));
    }
    expect(taken).toBeGreaterThan(500); // the mutations that keep a valid record are taken
  });
});
