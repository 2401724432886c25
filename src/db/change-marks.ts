import type { Client } from 'pg';

/** Project 0 in `definitions_change`: every project (a TRUNCATE; migration ...DefinitionsChanges). */
export const EVERY_PROJECT = 0;

// One snapshot for both: the rows changed by transactions that may have committed since the last
// read, and the oldest transaction this snapshot still sees running (the next read's bound). The
// bound is written into the text (digits from the database): a query without parameters travels as
// one simple-protocol message, which the embedded database's socket runs whole. (Split into the
// extended protocol's several messages, it once interleaved with the pool's and hung concurrent
// writes; src/db/embedded-session.ts now keeps such a sequence whole too.)
const read = (horizon: bigint) => `select pg_snapshot_xmin(pg_current_snapshot())::text as horizon,
  coalesce((select json_agg(json_build_array(project_id, xid::text)) from definitions_change where xid >= '${horizon}'::xid8), '[]'::json) as changes`;

/**
 * What one process knows of `definitions_change` (migration Migration20261127120000DefinitionsChanges):
 * each row holds the last transaction that changed a project's definitions. A transaction that
 * commits after a read was either running then (so its id is at least that read's horizon, the
 * oldest running transaction) or began later (a larger id still), so reading the rows at or above
 * the last horizon never misses a commit. A row still at or above the horizon comes back on every
 * read while an older transaction runs anywhere on the server; `#seen` makes it count once.
 */
export class ChangeMarks {
  readonly #seen = new Map<number, bigint>();

  private constructor(private horizon: bigint) {}

  /** Starts at the current horizon: whatever committed before is already in what the caller reads next. */
  static async start(client: Client): Promise<ChangeMarks> {
    const { rows } = await client.query<{ horizon: string }>('select pg_snapshot_xmin(pg_current_snapshot())::text as horizon');
    return new ChangeMarks(BigInt(rows[0].horizon));
  }

  /** Records that `projectId` was changed by transaction `xid`: true if that is news. */
  take(projectId: number, xid: bigint): boolean {
    if (this.#seen.get(projectId) === xid) return false;
    this.#seen.set(projectId, xid);
    return true;
  }

  /** The projects changed since the last read (EVERY_PROJECT among them for "all"), each change once. */
  async read(client: Client): Promise<number[]> {
    const { rows } = await client.query<{ horizon: string; changes: Array<[number, string]> }>(read(this.horizon));
    const changed = rows[0].changes.filter(([projectId, xid]) => this.take(projectId, BigInt(xid))).map(([projectId]) => projectId);
    this.horizon = BigInt(rows[0].horizon);
    // Rows below the new horizon are never read again unless a later transaction changes them.
    for (const [projectId, xid] of this.#seen) if (xid < this.horizon) this.#seen.delete(projectId);
    return changed;
  }
}
