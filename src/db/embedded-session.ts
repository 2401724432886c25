import type { PGlite } from '@electric-sql/pglite';

/** What pglite-socket's server calls on the database it is given. */
type SocketSession = Pick<PGlite, 'isInTransaction' | 'runExclusive' | 'execProtocolRawStream' | 'exec' | 'waitReady'>;

// The extended protocol's messages that leave a sequence open until the client's Sync: Parse, Bind,
// Describe, Execute, Close, Flush. Sync, a simple Query or Terminate ends it.
const OPENS = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

/**
 * The embedded database as pglite-socket's server should see it. The server queues each protocol
 * message on its own, and between two messages of one client it runs another client's, unless the
 * session is in a transaction (then only that client's). A query in the extended protocol (Parse,
 * Bind, Describe, Execute, Sync: every query with parameters) is several messages that share the
 * session's unnamed portal until its Sync, so two clients' queries interleaved and one found the
 * other's portal, or none ("portal does not exist"), under concurrent requests. Here a sequence
 * counts as a transaction until its Sync, so the server runs each client's query whole.
 */
export function sequenceAwareSession(db: PGlite): SocketSession {
  let openSequence = false;
  return {
    isInTransaction: () => openSequence || db.isInTransaction(),
    runExclusive: (fn) => db.runExclusive(fn),
    // Set once the message ran: the server names it its last client only then, and a message that
    // failed must not leave the session held for a client that sent nothing more.
    execProtocolRawStream: async (message, options) => {
      openSequence = false;
      const result = await db.execProtocolRawStream(message, options);
      openSequence = OPENS.has(message[0]);
      return result;
    },
    // The server's own statement: the ROLLBACK of a client that left in a transaction (or mid-sequence).
    exec: (query, options) => {
      openSequence = false;
      return db.exec(query, options);
    },
    get waitReady() {
      return db.waitReady;
    },
  };
}
