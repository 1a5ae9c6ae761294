import { bytesToLatin1 } from "../primitives/latin1.js";
import type { StateSnapshot } from "../store/stateStore.js";
import { contractDataPrefix } from "../store/trieKeys.js";
import { at } from "../must.js";

/** nearcore's per-page caps for paginated view_state. */
export const MAX_VIEW_STATE_PAGE_ITEMS = 10_000;
export const MAX_VIEW_STATE_PAGE_BYTES = 50_000;

export interface ViewStateOptions {
  /** Key prefix relative to the contract (empty = everything). */
  readonly prefix: Uint8Array;
  /** Exclusive cursor (relative key); makes the request paginated. */
  readonly afterKey?: Uint8Array | undefined;
  /** Item limit (>= 1); makes the request paginated. Clamped to 10,000. */
  readonly limit?: number | undefined;
  /** Attach a completeness proof (unpaginated requests only). */
  readonly includeProof?: boolean | undefined;
}

export interface ViewStateResult {
  /** Entries in raw-byte key order; keys relative to the contract. */
  readonly values: { key: Uint8Array; value: Uint8Array }[];
  /** Key of the last returned item, present only when the page was cut short. */
  readonly lastKey?: Uint8Array;
  /** Serialized trie nodes proving `values` complete (src/proof verifies them). */
  readonly proof?: Uint8Array[];
}

/**
 * nearcore's view_state iteration: unpaginated requests return everything under the prefix;
 * paginated ones (limit or afterKey given) stop before an item once min(limit, 10,000)
 * items are on the page or the page already holds >= 50,000 bytes. As in nearcore, those
 * bytes count the full trie key (0x09 ‖ account ‖ ',' ‖ key) plus the value, and the check
 * runs before each append, so the item that crosses the limit is still included. `lastKey`
 * is set only when an item was left over. The account and size checks are StateView's;
 * afterKey inside the prefix is the RPC's parse rule; a limit below 1 and a paginated proof
 * request (a page has no completeness proof) throw here.
 */
export function viewStateIn(state: StateSnapshot, accountId: string, options: ViewStateOptions): ViewStateResult {
  const { prefix, afterKey, limit, includeProof } = options;
  const paginated = limit !== undefined || afterKey !== undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new RangeError(`limit must be an integer >= 1, got ${limit}`);
  if (paginated && includeProof === true) throw new RangeError("a proof cannot be combined with pagination");

  const base = contractDataPrefix(accountId);
  const full = base + bytesToLatin1(prefix);
  const after = afterKey === undefined ? undefined : base + bytesToLatin1(afterKey);
  const maxItems = paginated ? Math.min(limit ?? MAX_VIEW_STATE_PAGE_ITEMS, MAX_VIEW_STATE_PAGE_ITEMS) : Infinity;
  const maxBytes = paginated ? MAX_VIEW_STATE_PAGE_BYTES : Infinity;

  // Small Buffers come from Node's shared pool, so a page costs no ArrayBuffer of its own;
  // callers that base64-encode them (the RPC) pay no further copy.
  const values: { key: Uint8Array; value: Uint8Array }[] = [];
  let usedBytes = 0;
  let cut = false;
  const keyOffset = base.length;
  state.scan(full, after, (key, value) => {
    if (values.length >= maxItems || usedBytes >= maxBytes) {
      cut = true;
      return false;
    }
    usedBytes += key.length + value.length;
    values.push({ key: Buffer.from(key.slice(keyOffset), "latin1"), value: Buffer.from(value, "latin1") });
    return true;
  });

  const result: { values: typeof values; lastKey?: Uint8Array; proof?: Uint8Array[] } = { values };
  if (cut && values.length > 0) result.lastKey = at(values, values.length - 1).key;
  if (includeProof === true) result.proof = state.prove(full);
  return result;
}
