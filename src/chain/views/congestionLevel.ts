/** nearcore's congestion control limits (parameters.yaml, protocol >= 73). */
const MAX_CONGESTION_INCOMING_GAS = 400_000_000_000_000_000n; // 400 PGas of delayed receipts
const MAX_CONGESTION_OUTGOING_GAS = 10_000_000_000_000_000n; // 10 PGas of buffered receipts
const MAX_CONGESTION_MEMORY_CONSUMPTION = 1_000_000_000n; // 1 GB of receipts

/** A chunk header's `congestion_info` (gas as decimal strings, as nearcore sends u128). */
export interface CongestionInfo {
  readonly delayed_receipts_gas: string;
  readonly buffered_receipts_gas: string;
  readonly receipt_bytes: number;
}

function clampedFraction(value: bigint, max: bigint): number {
  if (value >= max) return 1;
  return Number(value) / Number(max);
}

/**
 * nearcore's `localized_congestion_level`: the largest of incoming (delayed receipts),
 * outgoing (buffered receipts) and memory congestion, each a fraction clamped to 1.
 */
export function localizedCongestionLevel(info: CongestionInfo): number {
  return Math.max(
    clampedFraction(BigInt(info.delayed_receipts_gas), MAX_CONGESTION_INCOMING_GAS),
    clampedFraction(BigInt(info.buffered_receipts_gas), MAX_CONGESTION_OUTGOING_GAS),
    clampedFraction(BigInt(info.receipt_bytes), MAX_CONGESTION_MEMORY_CONSUMPTION),
  );
}
