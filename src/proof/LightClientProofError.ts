import { ShardkitError } from "@shardkit/primitives/ShardkitError";

export type LightClientProofErrorCode =
  | "INVALID_INPUT"
  | "OUTCOME_ROOT_MISMATCH"
  | "BLOCK_MERKLE_ROOT_MISMATCH"
  | "NOT_NEWER"
  | "WRONG_EPOCH"
  | "UNKNOWN_EPOCH"
  | "MISSING_NEXT_BPS"
  | "NEXT_BPS_MISMATCH"
  | "BAD_SIGNATURE"
  | "NOT_ENOUGH_APPROVALS";

/** Why a light-client proof or block was rejected; `code` is stable, `message` is for people. */
export class LightClientProofError extends ShardkitError<LightClientProofErrorCode> {
  override readonly name = "LightClientProofError";
  constructor(code: LightClientProofErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** Runs `f`, reporting malformed input (bad base58, lengths, numbers) as INVALID_INPUT. */
export function asInvalidInput<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof LightClientProofError) throw e;
    throw new LightClientProofError("INVALID_INPUT", e instanceof Error ? e.message : String(e), { cause: e });
  }
}
