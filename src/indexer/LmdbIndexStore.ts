import type { Database, RootDatabase } from "lmdb";
import { openDerivedIndexEnv } from "./derivedIndexEnv.js";
import { IndexUnavailableError } from "./IndexUnavailableError.js";
import { compareStrings, contractRows, sortFtHolders } from "./indexRowOrder.js";
import type { AccountRows, AccountStateRow, FtBalance, FtHolder, FtRow, IndexBlockUpdate, IndexStatus, IndexStore, KeyPermission } from "./IndexStore.js";

/** Bumped when the layout below changes: an index of another format is rebuilt from the blocks. */
const FORMAT = 3;
/**
 * Between the two ids of a pair key: below every character of an account id or a public key,
 * so one id's pairs are one range (up to END). Printable: lmdb's key encoding gives control
 * characters a meaning of their own (a key with "\u0001" in it read back as an array).
 */
const SEP = " ";
const END = "!";
const pair = (a: string, b: string) => `${a}${SEP}${b}`;

/** What the index holds, written with every block in the same transaction. */
interface Head {
  readonly format: number;
  readonly height: number;
  /** Hash of the block at `height`: a chain that no longer has it (a revert while this was not open) gets a rebuilt index. */
  readonly blockHash: string;
  readonly timestampNs: string;
  readonly balanceHeight: number | null;
}

/** A row as it was before a block wrote it: `[table, key]` when absent, `[table, key, value]` when present. */
type UndoRow = readonly [table: string, key: string] | readonly [table: string, key: string, value: unknown];

/** What one block changed, to put back when a revert undoes the block: the rows it wrote and the head before it. */
interface Undo {
  readonly head: Head | null;
  readonly rows: readonly UndoRow[];
}

/**
 * The REST account-data index in its own LMDB environment (`<data-dir>/rest-index`), so a
 * restart resumes it at its last block instead of rebuilding it from every block, and nothing
 * of it stays in the heap. The same rows as MemoryIndexStore, keyed `id SEP id` so that an
 * account's (or a key's, or a token's) rows are one range scan; each block is one write
 * transaction with the head, so a killed process leaves whole blocks. Each block also keeps
 * the rows it overwrote (its undo entry: about 100 bytes for a block that changed nothing), so
 * a revert rewinds the index by the blocks it undoes instead of rebuilding it.
 */
export class LmdbIndexStore implements IndexStore {
  height: number | null = null;
  private head: Head | undefined;
  private closed = false;
  private readonly meta: Database<Head, string>;
  private readonly accounts: Database<AccountStateRow, string>;
  /** publicKey SEP accountId → permission */
  private readonly keys: Database<KeyPermission, string>;
  /** accountId SEP contractId → height of the block that last touched the pair */
  private readonly ft: Database<number, string>;
  private readonly nft: Database<number, string>;
  private readonly pools: Database<number, string>;
  /** contractId SEP accountId → balance */
  private readonly balances: Database<FtBalance, string>;
  /** contractId SEP accountId → height of the block that deferred the pair's balance read */
  private readonly deferred: Database<number, string>;
  /** height → what that block overwrote (see Undo) */
  private readonly undo: Database<Undo, number>;
  /** The tables by name, for undo rows. */
  private readonly tables: ReadonlyMap<string, Database<unknown, string>>;
  /** token → its numeric holders sorted, until a block changes the token (as in memory) */
  private readonly sortedHolders = new Map<string, FtHolder[]>();

  private constructor(
    private readonly env: RootDatabase,
    private readonly closeEnv: () => Promise<void>,
  ) {
    this.meta = env.openDB({ name: "meta" });
    this.accounts = env.openDB({ name: "accounts" });
    this.keys = env.openDB({ name: "keys" });
    this.ft = env.openDB({ name: "ft" });
    this.nft = env.openDB({ name: "nft" });
    this.pools = env.openDB({ name: "pools" });
    this.balances = env.openDB({ name: "balances" });
    this.deferred = env.openDB({ name: "deferred-reads" });
    this.undo = env.openDB({ name: "undo" });
    this.tables = new Map<string, Database<unknown, string>>([
      ["accounts", this.accounts],
      ["keys", this.keys],
      ["ft", this.ft],
      ["nft", this.nft],
      ["pools", this.pools],
      ["balances", this.balances],
      ["deferred", this.deferred],
    ]);
    const head = this.meta.get("head");
    if (head !== undefined && head.format !== FORMAT) this.clear();
    else this.setHead(head);
  }

  /** Opens (or creates) the index in `dir` (see openDerivedIndexEnv for what survives what). */
  static open(dir: string): LmdbIndexStore {
    const { env, close } = openDerivedIndexEnv(dir, 9);
    return new LmdbIndexStore(env, close);
  }

  /** Hash of the last indexed block (undefined before genesis is indexed). */
  get blockHash(): string | undefined {
    return this.head?.blockHash;
  }

  apply(update: IndexBlockUpdate): void {
    if (this.height !== null && update.height <= this.height) {
      throw new RangeError(`index is at block ${this.height}; cannot apply block ${update.height}`);
    }
    const head: Head = {
      format: FORMAT,
      height: update.height,
      blockHash: update.blockHash ?? "",
      timestampNs: update.timestampNs.toString(),
      balanceHeight: update.balancesRead ? update.height : (this.head?.balanceHeight ?? null),
    };
    // Every write goes through `put`, which first keeps the row as it was (once per row and block).
    const rows: UndoRow[] = [];
    const kept = new Set<string>();
    const put = <V>(table: string, db: Database<V, string>, key: string, value: V | undefined) => {
      const id = `${table}${SEP}${key}`;
      if (!kept.has(id)) {
        kept.add(id);
        const before = db.get(key);
        rows.push(before === undefined ? [table, key] : [table, key, before]);
      }
      if (value === undefined) db.removeSync(key);
      else db.putSync(key, value);
    };
    this.env.transactionSync(() => {
      for (const [accountId, state] of update.accountStates) put("accounts", this.accounts, accountId, state ?? undefined);
      for (const { publicKey, accountId, permission } of update.accessKeys) put("keys", this.keys, pair(publicKey, accountId), permission ?? undefined);
      for (const row of update.ft) {
        put("ft", this.ft, pair(row.accountId, row.contractId), update.height);
        const key = pair(row.contractId, row.accountId);
        // A deferred read keeps the previous balance (null when there is none), as in memory.
        if (row.deferred !== true) {
          put("balances", this.balances, key, row.balance);
          if (this.deferred.get(key) !== undefined) put("deferred", this.deferred, key, undefined);
        } else {
          if (this.balances.get(key) === undefined) put("balances", this.balances, key, null);
          if (this.deferred.get(key) === undefined) put("deferred", this.deferred, key, update.height);
        }
        this.sortedHolders.delete(row.contractId);
      }
      for (const row of update.ftRetries ?? []) {
        const key = pair(row.contractId, row.accountId);
        put("balances", this.balances, key, row.balance);
        if (this.deferred.get(key) !== undefined) put("deferred", this.deferred, key, undefined);
        this.sortedHolders.delete(row.contractId);
      }
      for (const row of update.nft) put("nft", this.nft, pair(row.accountId, row.contractId), update.height);
      for (const row of update.pools) put("pools", this.pools, pair(row.accountId, row.poolId), update.height);
      this.undo.putSync(update.height, { head: this.head ?? null, rows });
      this.meta.putSync("head", head);
    });
    this.setHead(head);
  }

  /** Forgets every row (the chain this index followed was reverted or replaced): the next `apply` is genesis again. */
  clear(): void {
    this.env.transactionSync(() => {
      for (const db of [this.meta, this.undo, ...this.tables.values()]) db.clearSync();
    });
    this.sortedHolders.clear();
    this.setHead(undefined);
  }

  /**
   * Undoes blocks from the head down, in one transaction, until the head is a block the chain
   * has (`chainHash(height)` is its hash there): a revert costs the blocks it undid. False, with
   * nothing changed, when the undo entries do not reach such a block (genesis itself replaced):
   * the caller clears the index then.
   */
  rewindToChain(chainHash: (height: number) => string | undefined): boolean {
    let head = this.head;
    const undone: [height: number, undo: Undo][] = [];
    while (head !== undefined && chainHash(head.height) !== head.blockHash) {
      const undo = this.undo.get(head.height);
      if (undo === undefined) return false;
      undone.push([head.height, undo]);
      head = undo.head ?? undefined;
    }
    if (head === undefined) return false;
    if (undone.length === 0) return true;
    this.env.transactionSync(() => {
      for (const [height, undo] of undone) {
        for (const row of [...undo.rows].reverse()) {
          const db = this.tables.get(row[0]);
          if (db === undefined) continue;
          if (row.length === 2) db.removeSync(row[1]);
          else db.putSync(row[1], row[2]);
        }
        this.undo.removeSync(height);
      }
      this.meta.putSync("head", head);
    });
    this.sortedHolders.clear();
    this.setHead(head);
    return true;
  }

  status(): IndexStatus {
    return { height: this.height, timestampNs: this.head === undefined ? null : BigInt(this.head.timestampNs), balanceHeight: this.head?.balanceHeight ?? null };
  }

  account(accountId: string): AccountRows {
    return {
      height: this.appliedHeight(),
      state: this.accounts.get(accountId),
      ft: this.ftRows(accountId),
      nft: contractRows(this.pairsOf(this.nft, accountId)),
      pools: contractRows(this.pairsOf(this.pools, accountId)),
    };
  }

  accountsByKey(publicKey: string, fullAccessOnly: boolean): { height: number; accountIds: string[] } {
    const height = this.appliedHeight();
    const accountIds = this.pairsOf(this.keys, publicKey)
      .filter(([, permission]) => !fullAccessOnly || permission === "full")
      .map(([accountId]) => accountId);
    return { height, accountIds };
  }

  ftTop(tokenId: string, limit: number): { height: number; holders: FtHolder[] } {
    const height = this.appliedHeight();
    let sorted = this.sortedHolders.get(tokenId);
    if (sorted === undefined) this.sortedHolders.set(tokenId, (sorted = sortFtHolders(this.pairsOf(this.balances, tokenId))));
    return { height, holders: sorted.slice(0, limit) };
  }

  pendingBalanceReads(): { accountId: string; contractId: string }[] {
    const pending: { accountId: string; contractId: string; height: number }[] = [];
    for (const { key, value } of this.deferred.getRange()) {
      const [contractId = "", accountId = ""] = key.split(SEP);
      pending.push({ accountId, contractId, height: value });
    }
    return pending.sort((a, b) => a.height - b.height).map(({ accountId, contractId }) => ({ accountId, contractId }));
  }

  /** Flushes and closes the environment; reads after it answer IndexUnavailableError. */
  close(): Promise<void> {
    this.closed = true;
    return this.closeEnv();
  }

  private ftRows(accountId: string): FtRow[] {
    return this.pairsOf(this.ft, accountId)
      .map(([contractId, lastUpdateBlockHeight]) => ({ contractId, balance: this.balances.get(pair(contractId, accountId)) ?? null, lastUpdateBlockHeight }))
      .sort((a, b) => compareStrings(a.contractId, b.contractId));
  }

  /** The (second id, value) entries under `first`, in key order. */
  private pairsOf<V>(db: Database<V, string>, first: string): [string, V][] {
    const prefix = `${first}${SEP}`;
    const out: [string, V][] = [];
    for (const { key, value } of db.getRange({ start: prefix, end: `${first}${END}` })) out.push([key.slice(prefix.length), value]);
    return out;
  }

  /** The height reads answer at; checked first by every read, so a closed store answers 503, not a driver error. */
  private appliedHeight(): number {
    if (this.closed) throw new IndexUnavailableError("the index is closed (the chain is being reset or the server is stopping)");
    if (this.height === null) throw new Error("the index has not applied genesis yet");
    return this.height;
  }

  private setHead(head: Head | undefined): void {
    this.head = head;
    this.height = head?.height ?? null;
  }
}
