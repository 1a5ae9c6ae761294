import pg from "pg";

/** The advisory lock key of the index writer ("shardkit index leader"). */
export const INDEX_LEADER_LOCK = 0x5348_4b49;

/**
 * Leadership as a PostgreSQL session-level advisory lock: held as long as the session that took
 * it lives. A leader that dies (SIGKILL, a lost connection, a database restart) loses its
 * session and so the lock; another instance polling `pg_try_advisory_lock` then gets it.
 * The session is also the leader's write connection, so a leader that lost the lock can no
 * longer write.
 */
export class LeaderLock {
  private lostHandlers: (() => void)[] = [];
  private lost = false;

  private constructor(readonly session: pg.Client) {
    const lose = () => {
      if (this.lost) return;
      this.lost = true;
      for (const handler of this.lostHandlers) handler();
    };
    session.on("error", lose);
    session.on("end", lose);
  }

  /** The lock when no other session holds it, else undefined (the session is closed again). */
  static async tryAcquire(connectionString: string, key = INDEX_LEADER_LOCK): Promise<LeaderLock | undefined> {
    const session = new pg.Client({ connectionString, application_name: "shardkit index leader", keepAlive: true });
    session.on("error", () => undefined);
    await session.connect();
    try {
      const { rows } = await session.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [key]);
      if (rows[0]?.locked === true) return new LeaderLock(session);
    } catch (error) {
      await session.end().catch(() => undefined);
      throw error;
    }
    await session.end().catch(() => undefined);
    return undefined;
  }

  get held(): boolean {
    return !this.lost;
  }

  /** Called once when the session dies (the lock is then gone). */
  onLost(handler: () => void): void {
    if (this.lost) handler();
    else this.lostHandlers.push(handler);
  }

  /** Gives the lock up by closing its session. */
  async release(): Promise<void> {
    this.lostHandlers = [];
    await this.session.end().catch(() => undefined);
  }
}
