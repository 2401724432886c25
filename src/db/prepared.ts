import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A statement the hot paths run by name: parsed and planned once per pooled connection. */
export interface PreparedStatement {
  name: string;
  /** `$1`, `$2`… placeholders. */
  text: string;
}

interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
  emit(event: 'query', query: { sql: string; bindings: unknown[]; method: string }): void;
}

/**
 * Each pooled connection names its statements apart, and so does each process (a random tag): the
 * embedded database serves every connection, the CLI's beside the server's included, from one shared
 * session (src/db/embedded.ts), where two connections preparing one name would collide.
 */
const suffixes = new WeakMap<PgClient, string>();
const processTag = randomBytes(4).toString('hex');
let connections = 0;

/**
 * Runs `statement` on a connection of the app's pool, without an EntityManager fork, a unit of
 * work or a query builder: for the hot paths' reads (docs/operations.md, "The route table"): the
 * SDK paths' lookups, every admin request's access check, a flag by id or key. Reported on knex's
 * `query` event like every other statement, so statement counts see it. A statement names its
 * columns (no `*`): a prepared `*` fails once a newer version of the service adds a column.
 */
export async function runPrepared<T>(em: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  // In a transaction, knex's transaction client hands out the transaction's connection (and releases
  // nothing), so the statement sees the transaction's writes and takes no second connection.
  const runner = em.getTransactionContext<{ client: KnexClient }>() ?? em.getConnection().getKnex();
  const client = (runner as unknown as { client: KnexClient }).client;
  const connection = await client.acquireConnection();
  try {
    let suffix = suffixes.get(connection);
    if (suffix === undefined) suffixes.set(connection, (suffix = `${processTag}_${connections++}`));
    client.emit('query', { sql: statement.text, bindings: values, method: 'raw' });
    const result = await connection.query({ name: `${statement.name}_${suffix}`, text: statement.text, values });
    return result.rows as T[];
  } finally {
    await client.releaseConnection(connection);
  }
}
