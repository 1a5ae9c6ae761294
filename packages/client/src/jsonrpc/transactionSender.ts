import { base58Decode } from "@shardkit/primitives/base58";
import type { Action, NonDelegateAction, SignedDelegateAction } from "@shardkit/primitives/action";
import type { RpcClient } from "../generated/rpc/client.js";
import type {
  Finality,
  SendTxResult,
  TxExecutionStatus,
  TxStatusWithOutcome,
} from "../generated/rpc/types.js";
import type { Signer } from "./keys.js";
import { isRpcError } from "./RpcResponseError.js";
import { signDelegateAction } from "./signDelegateAction.js";
import { signTransaction, type SignedTransactionPayload } from "./signTransaction.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";

export interface TransactionSenderOptions {
  rpc: Pick<RpcClient, "query" | "block" | "sendTx" | "tx">;
  /** The account that signs and pays. */
  signerId: string;
  /** One of its access keys. */
  signer: Signer;
  /** Which block the transaction references (and so when it expires). Default "final". */
  blockFinality?: Finality;
}

export interface SendAndWaitOptions {
  /** The status to wait for. Default EXECUTED_OPTIMISTIC (as broadcast_tx_commit). */
  waitUntil?: TxExecutionStatus;
  /** Give up after this long, polling `tx` past the node's own TIMEOUT_ERRORs. Default 60 s. */
  timeoutMs?: number;
}

/** Sends transactions for one account and key: nonces, block hashes, retries, waiting. */
export interface TransactionSender {
  readonly signerId: string;
  /** Signs a transaction with the next nonce and a recent block hash, without sending it. */
  sign(receiverId: string, actions: readonly Action[]): Promise<SignedTransactionPayload>;
  /**
   * Signs a meta transaction for a relayer: a `Delegate` action with the next nonce (the same
   * counter as transactions) valid for `blocksValid` blocks after the head (default 120). The
   * relayer sends it in a transaction to this account.
   */
  signDelegate(receiverId: string, actions: readonly NonDelegateAction[], options?: { blocksValid?: number }): Promise<SignedDelegateAction>;
  /**
   * Signs, sends and waits until `waitUntil`; resolves with the outcome. A stale nonce or an
   * expired block hash (INVALID_TRANSACTION InvalidNonce / Expired) is refreshed and the
   * transaction signed and sent again, once. A node TIMEOUT_ERROR is followed by polling `tx`.
   */
  sendAndWait(
    receiverId: string,
    actions: readonly Action[],
    options?: SendAndWaitOptions & { waitUntil?: OutcomeStatus },
  ): Promise<TxStatusWithOutcome>;
  sendAndWait(
    receiverId: string,
    actions: readonly Action[],
    options: SendAndWaitOptions,
  ): Promise<SendTxResult>;
}

/** The statuses whose answer carries the execution outcome (the default is one of them). */
export type OutcomeStatus = "EXECUTED_OPTIMISTIC" | "EXECUTED" | "FINAL";

/** The InvalidTxError kinds this sender recovers from by re-signing. */
function retryableReason(error: unknown): "nonce" | "expired" | undefined {
  if (!isRpcError(error, "INVALID_TRANSACTION")) return undefined;
  const reason = error.data?.TxExecutionError?.InvalidTxError;
  if (reason === "Expired") return "expired";
  if (typeof reason === "object" && reason !== null && "InvalidNonce" in reason) return "nonce";
  return undefined;
}

export function transactionSender(options: TransactionSenderOptions): TransactionSender {
  const { rpc, signerId, signer } = options;
  const publicKey = formatPublicKey(signer.publicKey);
  let lastNonce: bigint | undefined;

  async function chainNonce(): Promise<bigint> {
    const key = await rpc.query({
      request_type: "view_access_key",
      finality: "optimistic",
      account_id: signerId,
      public_key: publicKey,
    });
    if ("error" in key) throw new Error(`${signerId}: ${key.error}`);
    return BigInt(key.nonce);
  }

  async function nextNonce(): Promise<bigint> {
    if (lastNonce === undefined) {
      const fetched = await chainNonce();
      // Another send may have fetched meanwhile; the higher one wins.
      lastNonce = lastNonce === undefined || fetched > lastNonce ? fetched : lastNonce;
    }
    lastNonce += 1n;
    return lastNonce;
  }

  async function sign(receiverId: string, actions: readonly Action[]): Promise<SignedTransactionPayload> {
    const [nonce, block] = await Promise.all([
      nextNonce(),
      rpc.block({ finality: options.blockFinality ?? "final" }),
    ]);
    return signTransaction(
      { signerId, receiverId, nonce, blockHash: base58Decode(block.header.hash), actions },
      signer,
    );
  }

  async function signDelegate(
    receiverId: string,
    actions: readonly NonDelegateAction[],
    delegateOptions: { blocksValid?: number } = {},
  ): Promise<SignedDelegateAction> {
    const [nonce, head] = await Promise.all([nextNonce(), rpc.block({ finality: "optimistic" })]);
    const maxBlockHeight = BigInt(head.header.height + (delegateOptions.blocksValid ?? 120));
    return signDelegateAction({ senderId: signerId, receiverId, actions, nonce, maxBlockHeight }, signer);
  }

  async function waitFor(
    payload: SignedTransactionPayload,
    waitUntil: TxExecutionStatus,
    deadline: number,
  ): Promise<SendTxResult> {
    try {
      return await rpc.sendTx({ signed_tx_base64: payload.signedTxBase64, wait_until: waitUntil });
    } catch (error) {
      if (!isRpcError(error, "TIMEOUT_ERROR")) throw error;
    }
    // The node stopped waiting, the transaction may still land: ask for it until the deadline.
    for (;;) {
      try {
        return await rpc.tx({ tx_hash: payload.hash, sender_account_id: signerId, wait_until: waitUntil });
      } catch (error) {
        if (!isRpcError(error, "TIMEOUT_ERROR", "UNKNOWN_TRANSACTION") || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  async function sendAndWait(
    receiverId: string,
    actions: readonly Action[],
    waitOptions: SendAndWaitOptions = {},
  ): Promise<SendTxResult> {
    const waitUntil = waitOptions.waitUntil ?? "EXECUTED_OPTIMISTIC";
    const deadline = Date.now() + (waitOptions.timeoutMs ?? 60_000);
    try {
      return await waitFor(await sign(receiverId, actions), waitUntil, deadline);
    } catch (error) {
      const reason = retryableReason(error);
      if (reason === undefined) throw error;
      if (reason === "nonce") lastNonce = undefined;
      return await waitFor(await sign(receiverId, actions), waitUntil, deadline);
    }
  }

  return { signerId, sign, signDelegate, sendAndWait: sendAndWait as TransactionSender["sendAndWait"] };
}
