// near-sdk's per-method guards and the "STATE" record.
import { attachedDeposit, currentAccountId, predecessorAccountId, storageHasKey, storageRead, utf8 } from "./near";
import { panicStr, require } from "./panic";
import { U128 } from "./u128";

export const STATE_KEY = "STATE";

export function stateExists(): bool {
  return storageHasKey(utf8(STATE_KEY));
}

/** #[init]: refuses a second initialisation. */
export function assertNotInitialized(): void {
  if (stateExists()) panicStr("The contract has already been initialized");
}

/**
 * near-sdk's `env::state_read()` in a method of an initialised contract: the "STATE" record,
 * read with one storage_read (no has_key first, as near-sdk does), or its panic.
 */
export function readState(): Uint8Array {
  const state = storageRead(utf8(STATE_KEY));
  if (state == null) panicStr("The contract is not initialized");
  return state!;
}

/** Non-payable change methods refuse any deposit. */
export function assertNoDeposit(method: string): void {
  if (!attachedDeposit().isZero()) panicStr("Method " + method + " doesn't accept deposit");
}

/** #[private]: only the contract itself (callbacks). */
export function assertPrivate(method: string): void {
  if (predecessorAccountId() != currentAccountId()) panicStr("Method " + method + " is private");
}

export function assertOneYocto(): void {
  require(attachedDeposit().eq(U128.from(1)), "Requires attached deposit of exactly 1 yoctoNEAR");
}

/** Storage price per byte (nearcore's storage_amount_per_byte), as near-sdk's env::storage_byte_cost(). */
export function storageByteCost(): U128 {
  return U128.from(10_000_000_000_000_000_000);
}
