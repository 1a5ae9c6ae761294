import { open } from "node:fs/promises";
import { join } from "node:path";
import { parseCryptoHash } from "../../../src/chain/primitives/cryptoHash.js";
import { encodeSignedTransaction, signTransaction, type Action } from "../../../src/chain/transaction/index.js";
import { startServe, type CliProcess, type ServeUrls } from "../../cli/cliProcess.js";
import { fixtureContractCode } from "../../../src/chain/genesis/fixtureContractCode.js";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { formatCryptoHash } from "../../../src/chain/primitives/cryptoHash.js";
import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { sha256 } from "../../../src/chain/primitives/sha256.js";

/** The upstream chain the fork tests fork: its own accounts, so none is shadowed by the fork's dev genesis. */
export const OWNER = "owner.near";
export const HOLDER = "holder.near";
export const TOKEN = "token.near";
export const BIG = "big.near";
export const NEAR = 10n ** 24n;
export const TOKEN_SUPPLY = 1_000n * 10n ** 18n;
export const HOLDER_TOKENS = 100n * 10n ** 18n;
/** Contract data entries of BIG. */
export const BIG_ENTRIES = 100_000;

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
const mapKey = (prefix: string, id: string) => new BorshWriter().fixed(new TextEncoder().encode(prefix)).string(id).toBytes();
const u128 = (v: bigint) => new BorshWriter().u128(v).toBytes();

/** BIG's i-th entry: `k` ‖ i (u32 big-endian), value `v` ‖ i as text. */
export function bigEntry(i: number): { key: Buffer; value: Buffer } {
  const key = Buffer.alloc(5);
  key.write("k");
  key.writeUInt32BE(i, 1);
  return { key, value: Buffer.from(`v${i}`) };
}

/** Writes the upstream's genesis: OWNER and HOLDER with their dev keys (HOLDER has two), TOKEN (the FT fixture), BIG (100,000 entries). */
export async function writeUpstreamGenesis(path: string): Promise<void> {
  const account = (id: string, amount: bigint, code?: Uint8Array) => ({
    Account: { account_id: id, account: { amount: amount.toString(), locked: "0", code_hash: code ? formatCryptoHash(sha256(code)) : "11111111111111111111111111111111", storage_usage: 0 } },
  });
  const key = (id: string, label = id) => ({ AccessKey: { account_id: id, public_key: devKeyPair(label).publicKeyString, access_key: { nonce: 0, permission: "FullAccess" } } });
  const data = (id: string, k: Uint8Array | string, v: Uint8Array | string) => ({ Data: { account_id: id, data_key: b64(k), value: b64(v) } });
  const ft = fixtureContractCode("ft");
  const kv = fixtureContractCode("kv");
  const metadata = JSON.stringify({ spec: "ft-1.0.0", name: "Upstream Token", symbol: "UPT", icon: null, reference: null, reference_hash: null, decimals: 18 });
  const head = [
    account(OWNER, 1_000n * NEAR),
    key(OWNER),
    account(HOLDER, 100n * NEAR),
    key(HOLDER),
    key(HOLDER, `${HOLDER}#2`),
    account(TOKEN, 50n * NEAR, ft),
    key(TOKEN),
    { Contract: { account_id: TOKEN, code: b64(ft) } },
    data(TOKEN, "m", metadata),
    data(TOKEN, "STATE", new BorshWriter().u128(TOKEN_SUPPLY).u64(125n).toBytes()),
    data(TOKEN, mapKey("a", OWNER), u128(TOKEN_SUPPLY - HOLDER_TOKENS)),
    data(TOKEN, mapKey("a", HOLDER), u128(HOLDER_TOKENS)),
    account(BIG, 500n * NEAR, kv),
    key(BIG),
    { Contract: { account_id: BIG, code: b64(kv) } },
  ];
  const file = await open(path, "w");
  try {
    await file.write(
      `{"chain_id":"upstream-test","genesis_time":"2025-01-01T00:00:00.000000Z","genesis_height":1000,"protocol_version":85,"min_gas_price":"100000000","epoch_length":100,"records":[\n` +
        head.map((r) => JSON.stringify(r)).join(",\n"),
    );
    for (let i = 0; i < BIG_ENTRIES; i += 10_000) {
      const lines: string[] = [];
      for (let j = i; j < Math.min(i + 10_000, BIG_ENTRIES); j++) {
        const { key: k, value: v } = bigEntry(j);
        lines.push(JSON.stringify(data(BIG, k, v)));
      }
      await file.write(",\n" + lines.join(",\n"));
    }
    await file.write("\n]}\n");
  } finally {
    await file.close();
  }
}

/** One JSON-RPC call; throws on an error answer. */
export async function rpcResult(url: string, method: string, params: unknown): Promise<any> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Sends a transaction to `url` signed with the signer's dev key and waits until it is final there. */
export async function sendWithDevKey(url: string, signerId: string, receiverId: string, actions: Action[]): Promise<any> {
  const key = devKeyPair(signerId);
  const ak = await rpcResult(url, "query", { request_type: "view_access_key", finality: "optimistic", account_id: signerId, public_key: key.publicKeyString });
  const signed = signTransaction(
    { version: 0, signerId, publicKey: key.publicKey, nonce: BigInt(ak.nonce) + 1n, receiverId, blockHash: parseCryptoHash(ak.block_hash), actions },
    key,
  );
  return rpcResult(url, "send_tx", { signed_tx_base64: Buffer.from(encodeSignedTransaction(signed)).toString("base64"), wait_until: "FINAL" });
}

/**
 * Starts the upstream (`shardkit serve` with this genesis, on-demand blocks) and makes one
 * transfer on it, so its final block is past its genesis. Returns the process, its final height
 * and the transfer's `send_tx` answer.
 */
export async function startUpstream(dir: string): Promise<{ upstream: CliProcess & ServeUrls; finalHeight: number; transfer: any }> {
  const genesis = join(dir, "upstream-genesis.json");
  await writeUpstreamGenesis(genesis);
  const upstream = await startServe(["--genesis", genesis, "--block-time", "0", "--shards", "2"]);
  const transfer = await sendWithDevKey(upstream.archivalUrl, OWNER, HOLDER, [{ type: "Transfer", deposit: 1n }]);
  const finalHeight = (await rpcResult(upstream.archivalUrl, "block", { finality: "final" })).header.height as number;
  return { upstream, finalHeight, transfer };
}
