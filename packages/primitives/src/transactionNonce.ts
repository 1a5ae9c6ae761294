import type { BorshWriter } from "./borshWriter.js";
import type { TxReader } from "./TxReader.js";

/**
 * The nonce of a TransactionV1 or DelegateActionV2 (nearcore `TransactionNonce`): a plain
 * access-key nonce (borsh tag 0), or a gas-key nonce that also picks one of the key's
 * parallel nonce slots (tag 1, `nonceIndex` a u16).
 */
export type TransactionNonce =
  | { readonly kind: "Nonce"; readonly nonce: bigint }
  | { readonly kind: "GasKeyNonce"; readonly nonce: bigint; readonly nonceIndex: number };

export function readTransactionNonce(r: TxReader, what: string): TransactionNonce {
  const at = r.position;
  const tag = r.u8(what);
  if (tag === 0) return { kind: "Nonce", nonce: r.u64(what) };
  if (tag === 1) return { kind: "GasKeyNonce", nonce: r.u64(what), nonceIndex: r.u16(what) };
  return r.fail(`${what}: unknown TransactionNonce tag ${tag}`, at);
}

export function writeTransactionNonce(w: BorshWriter, nonce: TransactionNonce): void {
  if (nonce.kind === "Nonce") {
    w.u8(0).u64(nonce.nonce);
    return;
  }
  if (!Number.isInteger(nonce.nonceIndex) || nonce.nonceIndex < 0 || nonce.nonceIndex > 0xffff) {
    throw new RangeError(`nonce_index must be a u16, got ${nonce.nonceIndex}`);
  }
  w.u8(1).u64(nonce.nonce).u16(nonce.nonceIndex);
}
