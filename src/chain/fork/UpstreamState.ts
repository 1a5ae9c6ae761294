import { parseStateRecord } from "../genesis/stateRecord.js";
import { decodeAccount, type Account } from "../primitives/account.js";
import { base64DecodeToLatin1 } from "../primitives/base64.js";
import { formatCryptoHash, parseCryptoHash } from "../primitives/cryptoHash.js";
import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import { sha256 } from "../primitives/sha256.js";
import { formatPublicKey, publicKeyFromBorsh } from "@shardkit/primitives/publicKey";
import { ML_DSA_65_HASH_TAG, formatPublicKeyHandle } from "@shardkit/primitives/publicKeyHandle";
import { stateChangeToWrite } from "../state/stateChange.js";
import { accessKeysPrefix, accountTrieKey, contractDataPrefix, TrieKeyColumn } from "../store/trieKeys.js";
import type { BlockingRpc } from "./BlockingRpc.js";
import type { ForkCache, ForkEntry, ForkRun } from "../store/ForkCache.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { UpstreamRpcError, UpstreamUnavailableError } from "./UpstreamError.js";

/** The global contract code column (trie_key.rs col 18): col ‖ borsh GlobalContractCodeIdentifier. */
const GLOBAL_CONTRACT_CODE = 0x12;
/** The columns read through to the upstream; the others (receipts, queues) are the fork's own. */
export function isForkedKey(key: string): boolean {
  const column = key.charCodeAt(0);
  return (
    column === TrieKeyColumn.ACCOUNT ||
    column === TrieKeyColumn.CONTRACT_CODE ||
    column === TrieKeyColumn.ACCESS_KEY ||
    column === TrieKeyColumn.CONTRACT_DATA ||
    column === GLOBAL_CONTRACT_CODE
  );
}

/** nearcore's paged view_state cap per page. */
const PAGE_ITEMS = 10_000;
/**
 * Items asked for in the first page of a contract-state read; each further page asks 8x more
 * (up to PAGE_ITEMS), so a short read costs a short page and a whole contract few requests.
 */
const FIRST_PAGE_ITEMS = 128;

/** Upstream answers that mean "there is none" rather than a failure. */
const ABSENT = new Set([
  "UNKNOWN_ACCOUNT",
  "UNKNOWN_ACCESS_KEY",
  "NO_CONTRACT_CODE",
  "UnknownAccount",
  "UnknownAccessKey",
  "NoContractCode",
]);

/**
 * The upstream's state at the fork block, by trie key, as a fork reads it beneath its own
 * writes: accounts (`view_account`), contract code (`view_code`), access keys
 * (`view_access_key`, or `view_access_key_list` for a whole account), contract data (one key:
 * paged `view_state` with the key as prefix and `limit: 1`; a whole account: every page) and
 * global contract code. Every answer, absence included, goes to the cache first, so an item
 * is fetched once. Other columns (receipts, queues) are local to the fork: undefined.
 */
export class UpstreamState {
  constructor(
    private readonly rpc: BlockingRpc,
    private readonly cache: ForkCache,
    private readonly blockHash: string,
  ) {}

  /** Upstream calls made so far (the bench's requests per first touch). */
  get calls(): number {
    return this.rpc.calls;
  }

  /** The upstream's value of a trie key at the fork block (undefined: none, or a local-only column). */
  get(key: string): string | undefined {
    if (!isForkedKey(key)) return undefined;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const column = key.charCodeAt(0);
    let value: string | null;
    switch (column) {
      case TrieKeyColumn.ACCOUNT:
        value = this.fetchAccount(key.slice(1));
        break;
      case TrieKeyColumn.CONTRACT_CODE: {
        const account = this.account(key.slice(1));
        // No local code upstream (no account, or a global contract): nothing to ask or keep.
        if (account === undefined || account.codeHash.every((b) => b === 0)) return undefined;
        // By its hash first: another account's code read before (the contract cache, keyed
        // by hash too, may have run this account's code without reading it).
        value = this.cache.code(bytesToLatin1(account.codeHash)) ?? null;
        if (value === null) {
          value = this.fetchCode(key.slice(1));
          if (value !== null) this.rememberCode(value);
        }
        break;
      }
      case TrieKeyColumn.ACCESS_KEY:
      case TrieKeyColumn.CONTRACT_DATA: {
        const comma = key.indexOf(",", 1);
        if (comma < 0) return undefined;
        const accountId = key.slice(1, comma);
        if (column === TrieKeyColumn.ACCESS_KEY) {
          const keys = this.cache.run(keyListId(key.slice(0, comma + 1)));
          if (keys !== undefined) return find(keys.entries, key);
        }
        // An account the upstream does not have has no keys or data there: answered from the
        // account's cached absence, nothing kept per key (a new local contract's writes).
        if (this.account(accountId) === undefined) return undefined;
        if (column === TrieKeyColumn.CONTRACT_DATA) {
          // Inside a page of contract state read before: there (or absent) without asking.
          const page = this.pageHolding(key.slice(0, comma + 1), undefined, key);
          if (page !== undefined) return find(page.run.entries, key);
        }
        value = column === TrieKeyColumn.ACCESS_KEY ? this.fetchAccessKey(accountId, key.slice(comma + 1)) : this.fetchData(accountId, key.slice(comma + 1));
        break;
      }
      default:
        value = this.fetchGlobalCode(key);
    }
    this.cache.put(key, value);
    return value ?? undefined;
  }

  rememberCode(code: string): void {
    const hash = bytesToLatin1(sha256(latin1ToBytes(code)));
    if (this.cache.code(hash) === undefined) this.cache.putCode(hash, code);
  }

  /**
   * False when the upstream certainly has no value for `key` (its account's absence is
   * cached, or the column is the fork's own): a local deletion of it needs no mark.
   */
  mayHave(key: string): boolean {
    if (!isForkedKey(key)) return false;
    const column = key.charCodeAt(0);
    if (column === TrieKeyColumn.ACCOUNT || column === TrieKeyColumn.CONTRACT_CODE) return this.cache.get(accountTrieKey(key.slice(1))) !== null;
    if (column === TrieKeyColumn.ACCESS_KEY || column === TrieKeyColumn.CONTRACT_DATA) {
      const comma = key.indexOf(",", 1);
      return comma < 0 || this.cache.get(accountTrieKey(key.slice(1, comma))) !== null;
    }
    return true;
  }

  /**
   * The upstream entries under `prefix` strictly after `after`, in key order, when the prefix
   * lies inside one account's access keys (its whole key list, fetched once) or contract data
   * (fetched page by page as the caller reads on, each page cached); undefined for any other
   * prefix (read locally only).
   */
  entries(prefix: string, after: string | undefined): Iterable<ForkEntry> | undefined {
    const column = prefix.charCodeAt(0);
    if (column !== TrieKeyColumn.ACCESS_KEY && column !== TrieKeyColumn.CONTRACT_DATA) return undefined;
    const comma = prefix.indexOf(",", 1);
    if (comma < 0) return undefined;
    const base = prefix.slice(0, comma + 1);
    const accountId = prefix.slice(1, comma);
    if (after !== undefined && !after.startsWith(prefix)) {
      if (after > prefix) return [];
      after = undefined;
    }
    if (this.account(accountId) === undefined) return [];
    if (column === TrieKeyColumn.ACCESS_KEY) {
      const all = this.keyList(accountId, base).entries;
      let from = lowerBound(all, after === undefined ? prefix : after + "\0");
      const out: ForkEntry[] = [];
      for (; from < all.length && all[from]![0].startsWith(prefix); from++) out.push(all[from]!);
      return out;
    }
    return this.dataPages(accountId, base, prefix.slice(base.length), after?.slice(base.length));
  }

  private keyList(accountId: string, base: string): ForkRun {
    const id = keyListId(base);
    let run = this.cache.run(id);
    if (run === undefined) {
      run = { entries: this.fetchAccessKeys(accountId), next: null };
      this.cache.putRun(id, run);
    }
    return run;
  }

  /** Contract data under `base` ‖ `relPrefix` after `base` ‖ `relAfter`, one cached page at a time. */
  private *dataPages(accountId: string, base: string, relPrefix: string, relAfter: string | undefined): Generator<ForkEntry> {
    let cursor = relAfter;
    let size = FIRST_PAGE_ITEMS;
    // A cursor inside a page read before (a reader paging with other page sizes) continues that page.
    const known = cursor === undefined ? undefined : this.pageHolding(base, relPrefix, base + cursor);
    if (known !== undefined) {
      const { run } = known;
      for (let i = lowerBound(run.entries, base + cursor + "\0"); i < run.entries.length; i++) yield run.entries[i]!;
      if (run.next === null) return;
      cursor = run.next;
      size = PAGE_ITEMS;
    }
    for (;;) {
      const id = dataPageId(base, relPrefix, cursor);
      let run = this.cache.run(id);
      if (run === undefined) {
        run = this.fetchDataPage(accountId, base, relPrefix, cursor, size);
        this.cache.putRun(id, run);
      }
      this.rememberPage(base, relPrefix, cursor, run);
      yield* run.entries;
      if (run.next === null) return;
      cursor = run.next;
      size = Math.min(size * 8, PAGE_ITEMS);
    }
  }

  /**
   * Key ranges of the contract-state pages read so far, per account (kept in the cache too, so
   * a restart finds them): a cursor or a single key inside a range is answered from its page.
   */
  private readonly pages = new Map<string, PageRange[]>();

  private pagesOf(base: string): PageRange[] {
    let ranges = this.pages.get(base);
    if (ranges === undefined) {
      const stored = this.cache.run(pageIndexId(base))?.entries ?? [];
      ranges = stored.flatMap(([id, range]) => pageRangeOf(id, range) ?? []);
      this.pages.set(base, ranges);
    }
    return ranges;
  }

  /**
   * Records what a page covers: from its cursor (exclusive; the prefix's start for a first
   * page) to its last entry, or to the prefix's end for the last page of the prefix.
   */
  private rememberPage(base: string, relPrefix: string, cursor: string | undefined, run: ForkRun): void {
    const ranges = this.pagesOf(base);
    const id = dataPageId(base, relPrefix, cursor);
    if (ranges.some((r) => r.id === id)) return;
    const last = run.entries[run.entries.length - 1]?.[0];
    if (last === undefined && run.next !== null) return;
    ranges.push({ id, prefix: base + relPrefix, after: cursor === undefined ? null : base + cursor, upTo: run.next === null ? null : last! });
    const entries = ranges.map((r): ForkEntry => [r.id, JSON.stringify({ prefix: r.prefix, after: r.after, upTo: r.upTo })]);
    this.cache.putRun(pageIndexId(base), { entries, next: null });
  }

  /** A page read before whose range holds `key` (one of `relPrefix`'s pages when given). */
  private pageHolding(base: string, relPrefix: string | undefined, key: string): { run: ForkRun } | undefined {
    for (const range of this.pagesOf(base)) {
      if (relPrefix !== undefined ? range.prefix !== base + relPrefix : !key.startsWith(range.prefix)) continue;
      if ((range.after === null || key > range.after) && (range.upTo === null || key <= range.upTo)) {
        const run = this.cache.run(range.id);
        if (run !== undefined) return { run };
      }
    }
    return undefined;
  }

  private account(accountId: string): Account | undefined {
    const raw = this.get(accountTrieKey(accountId));
    return raw === undefined ? undefined : decodeAccount(latin1ToBytes(raw));
  }

  /**
   * One `query` at the fork block: its result as a JSON object, or null when the upstream says
   * there is none (an unknown account, key or code; also nearcore's legacy error-as-result for
   * a missing access key). Fields are checked where they are read (`field`): a newer nearcore
   * may add fields, which are ignored.
   */
  private query(label: string, params: Record<string, unknown>): Record<string, unknown> | null {
    let result: unknown;
    try {
      result = this.rpc.call("query", { ...params, block_id: this.blockHash }, `query ${label}`);
    } catch (e) {
      if (e instanceof UpstreamRpcError && e.causeName !== undefined && ABSENT.has(e.causeName)) return null;
      throw e;
    }
    if (!isJsonObject(result)) throw this.malformed(label, "the result is not an object");
    if (typeof result["error"] === "string") {
      if (params["request_type"] === "view_access_key") return null;
      throw new UpstreamRpcError(`query ${label}`, this.rpc.settings.url, { name: "QUERY_ERROR_RESULT", data: result["error"] });
    }
    return result;
  }

  /** A field of an upstream answer, checked by `is`. */
  private field<T>(label: string, view: Record<string, unknown>, name: string, is: (value: unknown) => value is T): T {
    const value = view[name];
    if (!is(value)) throw this.malformed(label, `\`${name}\` is ${JSON.stringify(value) ?? "missing"}`);
    return value;
  }

  private malformed(label: string, detail: string): UpstreamUnavailableError {
    return new UpstreamUnavailableError(`query ${label}`, this.rpc.settings.url, `its answer is not nearcore's: ${detail}`);
  }

  private fetchAccount(accountId: string): string | null {
    const view = this.query(`view_account ${accountId}`, { request_type: "view_account", account_id: accountId });
    if (view === null) return null;
    const record = parseStateRecord({ Account: { account_id: accountId, account: view } }, 0);
    if (record.kind !== "Account") throw new Error("unreachable");
    const globalHash = view["global_contract_hash"];
    const globalAccount = view["global_contract_account_id"];
    const account: Account = {
      amount: record.amount,
      locked: record.locked,
      codeHash: record.codeHash,
      storageUsage: record.storageUsage ?? 0,
      ...(typeof globalHash === "string" && { globalContract: { kind: "CodeHash", codeHash: parseCryptoHash(globalHash) } }),
      ...(typeof globalAccount === "string" && { globalContract: { kind: "AccountId", accountId: globalAccount } }),
    };
    return stateChangeToWrite({ type: "account", accountId, account }).value;
  }

  private fetchCode(accountId: string): string | null {
    const label = `view_code ${accountId}`;
    const view = this.query(label, { request_type: "view_code", account_id: accountId });
    return view === null ? null : base64DecodeToLatin1(this.field(label, view, "code_base64", isString));
  }

  private fetchAccessKey(accountId: string, borshKey: string): string | null {
    if (borshKey.charCodeAt(0) === ML_DSA_65_HASH_TAG) {
      // An ML-DSA-65 key is stored by its digest, and view_access_key takes the full key: find it in the list.
      const key = accessKeysPrefix(accountId) + borshKey;
      return this.fetchAccessKeys(accountId).find(([k]) => k === key)?.[1] ?? null;
    }
    const publicKey = formatPublicKey(publicKeyFromBorsh(latin1ToBytes(borshKey)).key);
    const view = this.query(`view_access_key ${accountId} ${publicKey}`, { request_type: "view_access_key", account_id: accountId, public_key: publicKey });
    return view === null ? null : accessKeyEntry(accountId, publicKey, view)[1];
  }

  private fetchAccessKeys(accountId: string): ForkEntry[] {
    const label = `view_access_key_list ${accountId}`;
    const view = this.query(label, { request_type: "view_access_key_list", account_id: accountId });
    if (view === null) return [];
    const keys = this.field(label, view, "keys", isArrayOf(isAccessKeyInfo));
    return keys.map((k) => accessKeyEntry(accountId, k.public_key, k.access_key)).sort(byKey);
  }

  private fetchData(accountId: string, dataKey: string): string | null {
    const prefix = Buffer.from(dataKey, "latin1").toString("base64");
    const label = `view_state ${accountId} key ${prefix}`;
    const view = this.query(label, { request_type: "view_state", account_id: accountId, prefix_base64: prefix, limit: 1 });
    const first = view === null ? undefined : this.field(label, view, "values", isArrayOf(isStateItem))[0];
    return first !== undefined && base64DecodeToLatin1(first.key) === dataKey ? base64DecodeToLatin1(first.value) : null;
  }

  /** One page of paged `view_state`: `limit` entries under the prefix after the cursor (keys relative to the account). */
  private fetchDataPage(accountId: string, base: string, relPrefix: string, cursor: string | undefined, limit: number): ForkRun {
    const prefix = Buffer.from(relPrefix, "latin1").toString("base64");
    const after = cursor === undefined ? undefined : Buffer.from(cursor, "latin1").toString("base64");
    const label = `view_state ${accountId} prefix ${prefix}${after === undefined ? "" : ` after ${after}`}`;
    const view = this.query(label, {
      request_type: "view_state",
      account_id: accountId,
      prefix_base64: prefix,
      limit,
      ...(after === undefined ? {} : { after_key_base64: after }),
    });
    if (view === null) return { entries: [], next: null };
    const entries = this.field(label, view, "values", isArrayOf(isStateItem)).map((v): ForkEntry => [base + base64DecodeToLatin1(v.key), base64DecodeToLatin1(v.value)]);
    const last = view["last_key"];
    return { entries, next: typeof last === "string" ? base64DecodeToLatin1(last) : null };
  }

  private fetchGlobalCode(key: string): string | null {
    const tag = key.charCodeAt(1);
    const params =
      tag === 0
        ? { request_type: "view_global_contract_code", code_hash: base58Of(key.slice(2)) }
        : { request_type: "view_global_contract_code_by_account_id", account_id: key.slice(6) };
    const label = `${params.request_type} ${"code_hash" in params ? params.code_hash : params.account_id}`;
    try {
      const view = this.query(label, params);
      return view === null ? null : base64DecodeToLatin1(this.field(label, view, "code_base64", isString));
    } catch (e) {
      // nearcore names a missing global contract with its own cause.
      if (e instanceof UpstreamRpcError && e.causeName !== undefined && /NO_GLOBAL_CONTRACT|NoGlobalContract/.test(e.causeName)) return null;
      throw e;
    }
  }
}

// Stands in for an ML-DSA-65 key's "ml-dsa-65-hash:" handle, which a state record cannot carry,
// while the record parser checks the access key itself.
const PLACEHOLDER_KEY = formatPublicKeyHandle(new Uint8Array(33));

function accessKeyEntry(accountId: string, publicKey: string, accessKey: unknown): ForkEntry {
  const handle = publicKey.startsWith("ml-dsa-65-hash:");
  const record = parseStateRecord({ AccessKey: { account_id: accountId, public_key: handle ? PLACEHOLDER_KEY : publicKey, access_key: accessKey } }, 0);
  if (record.kind !== "AccessKey") throw new Error("unreachable");
  const write = stateChangeToWrite({ type: "accessKey", accountId, publicKey: handle ? publicKey : record.publicKey, accessKey: record.accessKey });
  return [write.key, write.value!];
}

function base58Of(latin1: string): string {
  return formatCryptoHash(latin1ToBytes(latin1));
}

/** Cache ids of runs: an account's key list; a page of its contract data by prefix and cursor; the account's page index. */
const keyListId = (base: string) => `keys ${base}`;
const dataPageId = (base: string, relPrefix: string, cursor: string | undefined) => `data ${JSON.stringify([base, relPrefix, cursor ?? null])}`;
const pageIndexId = (base: string) => `pages ${base}`;

/** The keys one cached page covers: under `prefix`, after `after` (null: from the start) up to `upTo` (null: to the end). */
interface PageRange {
  readonly id: string;
  readonly prefix: string;
  readonly after: string | null;
  readonly upTo: string | null;
}

/** A page range as rememberPage stored it; undefined for anything else (read as not cached). */
function pageRangeOf(id: string, text: string): PageRange | undefined {
  let range: unknown;
  try {
    range = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(range)) return undefined;
  const { prefix, after, upTo } = range;
  const keyOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";
  return typeof prefix === "string" && keyOrNull(after) && keyOrNull(upTo) ? { id, prefix, after, upTo } : undefined;
}

const byKey = (a: ForkEntry, b: ForkEntry) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** First index whose key is >= `key`. */
export function lowerBound(entries: readonly ForkEntry[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]![0] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function find(entries: readonly ForkEntry[], key: string): string | undefined {
  const i = lowerBound(entries, key);
  return i < entries.length && entries[i]![0] === key ? entries[i]![1] : undefined;
}

const isString = (value: unknown): value is string => typeof value === "string";

function isArrayOf<T>(is: (item: unknown) => item is T): (value: unknown) => value is T[] {
  return (value): value is T[] => Array.isArray(value) && value.every(is);
}

/** A `view_state` entry: base64 key and value. */
function isStateItem(value: unknown): value is { key: string; value: string } {
  return isJsonObject(value) && typeof value["key"] === "string" && typeof value["value"] === "string";
}

/** A `view_access_key_list` entry (its `access_key` is checked when parsed as a state record). */
function isAccessKeyInfo(value: unknown): value is { public_key: string; access_key: unknown } {
  return isJsonObject(value) && typeof value["public_key"] === "string" && "access_key" in value;
}
