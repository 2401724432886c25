import { readStatementTimeoutMs } from '../config';

/**
 * `statement_timeout` for every pooled connection, sent by `pg` as a startup parameter (no extra
 * round trip, no SET that a pooled connection could lose). A statement running longer is cancelled
 * by PostgreSQL (SQLSTATE 57014) and the request answers 503 (src/errors.ts translate()).
 * 0 = no timeout. Migrations run under it too (STATEMENT_TIMEOUT_MS=0 for one that needs longer).
 *
 * The embedded database: pglite-socket ignores startup parameters (src/db/embedded.ts), so nothing
 * reaches its one shared session, and PGlite could not enforce a timeout anyway (the WASM backend
 * has no timer interrupts): embedded statements are not bounded.
 */
export function statementTimeoutDriverOptions(timeoutMs: number = readStatementTimeoutMs()) {
  return timeoutMs > 0 ? { connection: { statement_timeout: timeoutMs } } : {};
}
