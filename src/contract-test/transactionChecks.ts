import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import type { Ed25519KeyPair } from "../chain/primitives/ed25519.js";
import { encodeSignedTransaction, signTransaction, transactionHash, type Transaction } from "../chain/transaction/index.js";
import type { CheckContext, RpcExchange } from "./CheckContext.js";
import type { SignerCredentials } from "./ContractTestOptions.js";
import { rpcReplyProblems } from "./rpcConformance.js";
import { signerKeyPair } from "./signerKey.js";
import type { SuiteRunner } from "./SuiteRunner.js";

/** wait_until levels in the order a transaction reaches them. */
const WAIT_LEVELS = ["NONE", "INCLUDED", "EXECUTED_OPTIMISTIC", "INCLUDED_FINAL", "EXECUTED", "FINAL"] as const;

interface SignerState {
  readonly accountId: string;
  readonly keys: Ed25519KeyPair;
  nonce: bigint;
}

/** Signs a transfer of `yocto` from the signer to itself; returns the payload and the transaction hash. */
async function signedTransfer(t: CheckContext, rpcUrl: string, signer: SignerState, nonce: bigint, yocto: bigint) {
  const block = await t.rpcResult(rpcUrl, "block", { finality: "final" });
  const transaction: Transaction = {
    version: 0,
    signerId: signer.accountId,
    publicKey: signer.keys.publicKey,
    nonce,
    receiverId: signer.accountId,
    blockHash: base58Decode(block.header.hash),
    actions: [{ type: "Transfer", deposit: yocto }],
  };
  const signed = signTransaction(transaction, signer.keys);
  return {
    base64: Buffer.from(encodeSignedTransaction(signed)).toString("base64"),
    hash: base58Encode(transactionHash(transaction)),
    signed,
  };
}

function expectConforms(t: CheckContext, method: string, reply: RpcExchange): any {
  const problems = rpcReplyProblems(method, reply);
  if (problems.length > 0) t.fail(problems.join("; "));
  if (reply.envelope.error !== undefined) t.fail(`${method} failed: ${JSON.stringify(reply.envelope.error).slice(0, 300)}`);
  return reply.envelope.result;
}

function expectSucceeded(t: CheckContext, result: any): void {
  if (result.status === undefined || !("SuccessValue" in result.status)) t.fail(`the transfer did not succeed: ${JSON.stringify(result.status)}`);
}

/**
 * With a signer: transfers of 1 yoctoNEAR to itself through send_tx at every wait_until,
 * broadcast_tx_async then tx, broadcast_tx_commit; the access key nonce advancing by one per
 * transaction; and InvalidTxError answers for a reused nonce and a bad signature.
 */
export async function transactionChecks(suite: SuiteRunner, rpcUrl: string, credentials: SignerCredentials): Promise<void> {
  let signer: SignerState | undefined;
  await suite.check("transactions", "signer key and access key", async (t) => {
    const keys = signerKeyPair(credentials.secretKey);
    const key = await t.rpcResult(rpcUrl, "query", {
      request_type: "view_access_key",
      finality: "final",
      account_id: credentials.accountId,
      public_key: keys.publicKeyString,
    });
    if (typeof key.nonce !== "number") t.fail(`${credentials.accountId} has no access key ${keys.publicKeyString}: ${JSON.stringify(key)}`);
    signer = { accountId: credentials.accountId, keys, nonce: BigInt(key.nonce) };
  });
  if (signer === undefined) return;
  const s = signer;
  const startNonce = s.nonce;

  for (const level of WAIT_LEVELS) {
    await suite.check("transactions", `send_tx wait_until ${level}`, async (t) => {
      const tx = await signedTransfer(t, rpcUrl, s, s.nonce + 1n, 1n);
      const reply = await t.rpc(rpcUrl, "send_tx", { signed_tx_base64: tx.base64, wait_until: level });
      s.nonce += 1n;
      const result = expectConforms(t, "send_tx", reply);
      const reached = WAIT_LEVELS.indexOf(result.final_execution_status);
      if (reached < WAIT_LEVELS.indexOf(level)) t.fail(`final_execution_status ${result.final_execution_status} is below the requested ${level}`);
      if (level === "NONE") {
        // Wait for it before the next nonce, so the two cannot be reordered.
        const status = await t.rpc(rpcUrl, "tx", { tx_hash: tx.hash, sender_account_id: s.accountId, wait_until: "EXECUTED_OPTIMISTIC" });
        expectSucceeded(t, expectConforms(t, "tx", status));
      } else if (reached >= WAIT_LEVELS.indexOf("EXECUTED_OPTIMISTIC")) {
        expectSucceeded(t, result);
        if (result.transaction.hash !== tx.hash) t.fail(`transaction.hash ${result.transaction.hash}, signed ${tx.hash}`);
      }
    });
  }

  await suite.check("transactions", "view_access_key nonce advances by one per transaction", async (t) => {
    const key = await t.rpcResult(rpcUrl, "query", {
      request_type: "view_access_key",
      finality: "final",
      account_id: s.accountId,
      public_key: s.keys.publicKeyString,
    });
    if (BigInt(key.nonce) !== s.nonce) t.fail(`nonce ${key.nonce} after ${s.nonce - startNonce} transactions from ${startNonce}, expected ${s.nonce}`);
  });

  await suite.check("transactions", "broadcast_tx_async then tx", async (t) => {
    const tx = await signedTransfer(t, rpcUrl, s, s.nonce + 1n, 1n);
    const hash = expectConforms(t, "broadcast_tx_async", await t.rpc(rpcUrl, "broadcast_tx_async", [tx.base64]));
    s.nonce += 1n;
    if (hash !== tx.hash) t.fail(`broadcast_tx_async answered ${JSON.stringify(hash)}, the transaction hash is ${tx.hash}`);
    const result = expectConforms(t, "tx", await t.rpc(rpcUrl, "tx", { tx_hash: tx.hash, sender_account_id: s.accountId, wait_until: "EXECUTED_OPTIMISTIC" }));
    expectSucceeded(t, result);
  });

  await suite.check("transactions", "broadcast_tx_commit", async (t) => {
    const tx = await signedTransfer(t, rpcUrl, s, s.nonce + 1n, 1n);
    const result = expectConforms(t, "broadcast_tx_commit", await t.rpc(rpcUrl, "broadcast_tx_commit", [tx.base64]));
    s.nonce += 1n;
    expectSucceeded(t, result);
  });

  const expectInvalidTx = async (t: CheckContext, base64: string, variant: string) => {
    const reply = await t.rpc(rpcUrl, "send_tx", { signed_tx_base64: base64, wait_until: "EXECUTED_OPTIMISTIC" });
    const problems = rpcReplyProblems("send_tx", reply);
    if (problems.length > 0) t.fail(problems.join("; "));
    const error = reply.envelope.error;
    if (error?.cause?.name !== "INVALID_TRANSACTION") t.fail(`expected INVALID_TRANSACTION, got ${JSON.stringify(error?.cause?.name ?? "a result")}`);
    if (!JSON.stringify(error.data).includes(`"${variant}"`)) t.fail(`expected the ${variant} variant in data, got ${JSON.stringify(error.data)}`);
  };
  await suite.check("transactions", "InvalidTxError: a used nonce", async (t) => {
    const tx = await signedTransfer(t, rpcUrl, s, s.nonce, 2n); // a new transaction (2 yocto) with the last used nonce
    await expectInvalidTx(t, tx.base64, "InvalidNonce");
  });
  await suite.check("transactions", "InvalidTxError: a bad signature", async (t) => {
    const tx = await signedTransfer(t, rpcUrl, s, s.nonce + 1n, 3n);
    const data = new Uint8Array(tx.signed.signature.data);
    data[0] = (data[0] ?? 0) ^ 0xff;
    const forged = Buffer.from(encodeSignedTransaction({ ...tx.signed, signature: { ...tx.signed.signature, data } })).toString("base64");
    await expectInvalidTx(t, forged, "InvalidSignature");
  });
}
