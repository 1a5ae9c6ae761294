import { bytesToLatin1 } from "../primitives/latin1.js";
import type { StateSnapshot } from "../store/stateStore.js";
import { contractDataPrefix } from "../store/trieKeys.js";

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
 * is set only when an item was left over. Validation (limit >= 1, afterKey inside the
 * prefix, proof only unpaginated, the 50 KB TOO_LARGE gate) belongs to the caller; a
 * paginated proof request throws because a page has no completeness proof.
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

  // Collect latin1 strings first, then copy them all into one buffer: one allocation per
  // page instead of two ArrayBuffers per item.
  const raw: string[] = [];
  let usedBytes = 0;
  let cut = false;
  state.scan(full, after, (key, value) => {
    if (raw.length / 2 >= maxItems || usedBytes >= maxBytes) {
      cut = true;
      return false;
    }
    usedBytes += key.length + value.length;
    raw.push(key, value);
    return true;
  });
  const values = toEntries(raw, base.length);

  const result: { values: typeof values; lastKey?: Uint8Array; proof?: Uint8Array[] } = { values };
  if (cut && values.length > 0) result.lastKey = values[values.length - 1]!.key;
  if (includeProof === true) result.proof = state.prove(full);
  return result;
}

/** Turns [key, value, key, value, …] latin1 strings into byte entries backed by one buffer. */
function toEntries(raw: readonly string[], keyOffset: number): { key: Uint8Array; value: Uint8Array }[] {
  let total = 0;
  for (let i = 0; i < raw.length; i++) total += raw[i]!.length - (i % 2 === 0 ? keyOffset : 0);
  const bytes = new Uint8Array(total);
  const writer = Buffer.from(bytes.buffer);
  const out = new Array<{ key: Uint8Array; value: Uint8Array }>(raw.length / 2);
  let off = 0;
  const copy = (s: string, from: number): Uint8Array => {
    const start = off;
    const len = s.length - from;
    // Short strings: a JS loop beats the native call overhead of Buffer#write.
    if (len < 64) for (let j = from; j < s.length; j++) bytes[off++] = s.charCodeAt(j);
    else off += writer.write(from === 0 ? s : s.slice(from), off, "latin1");
    return bytes.subarray(start, off);
  };
  for (let i = 0; i < raw.length; i += 2) {
    const key = copy(raw[i]!, keyOffset);
    out[i / 2] = { key, value: copy(raw[i + 1]!, 0) };
  }
  return out;
}
