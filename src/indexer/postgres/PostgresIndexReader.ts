import type pg from "pg";
import type { AccountRows, ContractRow, FtHolder, FtRow, IndexReader, IndexStatus } from "../IndexStore.js";
import { IndexUnavailableError } from "../IndexUnavailableError.js";
import { connectionFailure } from "./connectionFailure.js";

/** A database that holds no block yet (a gateway whose leader has not indexed the first one). */
const notIndexed = () => new IndexUnavailableError("the index holds no block yet");

/**
 * The REST index read from PostgreSQL. Each call is one SQL statement, so it reads one
 * snapshot: the rows and the height it reports belong to one committed block (the writer
 * commits each block in one transaction).
 */
export class PostgresIndexReader implements IndexReader {
  constructor(
    protected readonly pool: pg.Pool,
    /** Told the outcome of each read as far as the database's reachability goes (the gateway logs outages). */
    private readonly watch?: { reachable(): void; unreachable(error: IndexUnavailableError): void },
  ) {}

  /** One statement; a database that cannot be reached fails with IndexUnavailableError (REST answers 503). */
  protected async read<R extends pg.QueryResultRow>(query: string | pg.QueryConfig): Promise<pg.QueryResult<R>> {
    let result: pg.QueryResult<R>;
    try {
      result = await this.pool.query<R>(query);
    } catch (error) {
      const unavailable = connectionFailure(error);
      if (unavailable === undefined) throw error;
      this.watch?.unreachable(unavailable);
      throw unavailable;
    }
    this.watch?.reachable();
    return result;
  }

  async status(): Promise<IndexStatus> {
    const { rows } = await this.read<{ height: string | null; timestamp_ns: string | null; balance_height: string | null }>(
      "SELECT height, timestamp_ns, balance_height FROM idx_meta",
    );
    const row = rows[0];
    if (row === undefined) throw new Error("the PostgreSQL index has no idx_meta row (schema not created)");
    return {
      height: row.height === null ? null : Number(row.height),
      timestampNs: row.timestamp_ns === null ? null : BigInt(row.timestamp_ns),
      balanceHeight: row.balance_height === null ? null : Number(row.balance_height),
    };
  }

  async account(accountId: string): Promise<AccountRows> {
    const { rows } = await this.read<{
      height: string | null;
      state: { b: string; l: string; s: number } | null;
      ft: [string, string | null, number][];
      nft: [string, number][];
      pools: [string, number][];
    }>({
      name: "idx_account",
      text: `SELECT m.height,
        (SELECT json_build_object('b', balance, 'l', locked, 's', storage_bytes) FROM idx_accounts WHERE account_id = $1) AS state,
        (SELECT coalesce(json_agg(json_build_array(f.contract_id, b.balance, f.last_height) ORDER BY f.contract_id), '[]')
           FROM idx_ft f LEFT JOIN idx_ft_balances b ON b.contract_id = f.contract_id AND b.account_id = f.account_id
          WHERE f.account_id = $1) AS ft,
        (SELECT coalesce(json_agg(json_build_array(contract_id, last_height) ORDER BY contract_id), '[]')
           FROM idx_nft WHERE account_id = $1) AS nft,
        (SELECT coalesce(json_agg(json_build_array(pool_id, last_height) ORDER BY pool_id), '[]')
           FROM idx_pools WHERE account_id = $1) AS pools
        FROM idx_meta m`,
      values: [accountId],
    });
    const row = rows[0];
    if (row?.height == null) throw notIndexed();
    const contractRows = (list: [string, number][]): ContractRow[] =>
      list.map(([contractId, lastUpdateBlockHeight]) => ({ contractId, lastUpdateBlockHeight }));
    return {
      height: Number(row.height),
      state: row.state === null ? undefined : { balance: row.state.b, locked: row.state.l, storageBytes: row.state.s },
      ft: row.ft.map(([contractId, balance, lastUpdateBlockHeight]): FtRow => ({ contractId, balance, lastUpdateBlockHeight })),
      nft: contractRows(row.nft),
      pools: contractRows(row.pools),
    };
  }

  async accountsByKey(publicKey: string, onlyFullAccess: boolean): Promise<{ height: number; accountIds: string[] }> {
    const { rows } = await this.read<{ height: string | null; ids: string[] }>({
      name: "idx_accounts_by_key",
      text: `SELECT m.height,
        (SELECT coalesce(array_agg(account_id ORDER BY account_id), '{}') FROM idx_access_keys
          WHERE public_key = $1 AND (full_access OR NOT $2)) AS ids
        FROM idx_meta m`,
      values: [publicKey, onlyFullAccess],
    });
    const row = rows[0];
    if (row?.height == null) throw notIndexed();
    return { height: Number(row.height), accountIds: row.ids };
  }

  async ftTop(tokenId: string, limit: number): Promise<{ height: number; holders: FtHolder[] }> {
    const { rows } = await this.read<{ height: string | null; holders: [string, string][] }>({
      name: "idx_ft_top",
      text: `SELECT m.height,
        (SELECT coalesce(json_agg(json_build_array(t.account_id, t.balance) ORDER BY t.amount DESC, t.account_id DESC), '[]')
           FROM (SELECT account_id, balance, amount FROM idx_ft_balances
                  WHERE contract_id = $1 AND amount IS NOT NULL
                  ORDER BY amount DESC, account_id DESC LIMIT $2) t) AS holders
        FROM idx_meta m`,
      values: [tokenId, limit],
    });
    const row = rows[0];
    if (row?.height == null) throw notIndexed();
    return { height: Number(row.height), holders: row.holders.map(([accountId, balance]) => ({ accountId, balance })) };
  }
}
