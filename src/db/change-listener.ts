import { Client } from 'pg';
import type { Logger } from 'pino';
import { definitionsChanges } from '../modules/flag-evaluation/definitions-changes';
import { ChangeMarks, EVERY_PROJECT } from './change-marks';

/** The channel the definitions triggers notify (migration Migration20261123160000DefinitionsNotify). */
export const DEFINITIONS_CHANNEL = 'flagship_definitions';
/** How often the change marks are read: a change nobody notified is served within about this long. */
export const CHECK_EVERY_MS = 1000;
// A read that takes longer means a dead connection (on the embedded database, a transaction held
// that long by another client, which the reconnect then waits out).
const QUERY_TIMEOUT_MS = 15_000;
// How long a writer waits for its own mark to be read before answering (settle).
const SETTLE_WAIT_MS = 1000;
const RECONNECT_MS = [100, 500, 1000, 2000, 5000];

export interface ChangeListener {
  /** Settles once the first connection attempt has ended, listening or not. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** LISTEN for the triggers' notifications too (a PostgreSQL server; the embedded one sends none across clients). */
  notifications: boolean;
  /** Whether changes can be seen: caches must not be trusted while it is false. */
  onState: (listening: boolean) => void;
}

/** `<project>` or `<project>:<transaction>` (Migration20261127120000DefinitionsChanges); anything else: every project. */
function parsePayload(payload: string | undefined): { projectId: number | null; xid?: bigint } {
  const match = /^(\d+)(?::(\d+))?$/.exec(payload ?? '');
  if (!match) return { projectId: null };
  return { projectId: Number(match[1]), xid: match[2] === undefined ? undefined : BigInt(match[2]) };
}

/**
 * One connection per process that sees every change to the SDK definitions, whoever commits it.
 * It reads the database's change marks (src/db/change-marks.ts) every CHECK_EVERY_MS, on an unref'd
 * timer and never on a request's path, so a change made by the CLI, another process or psql is seen
 * within about a second on both databases, and a lost notification costs at most that. On a
 * PostgreSQL server it also LISTENs, which is faster (milliseconds). A failed read or a lost
 * connection makes the caches untrusted until it is back; after a reconnect every project counts
 * as changed.
 */
export function listenForChanges(url: string, logger: Logger, { notifications, onState }: ListenOptions): ChangeListener {
  let client: Client | null = null;
  let marks: ChangeMarks | null = null;
  let closed = false;
  let attempt = 0;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let checkTimer: NodeJS.Timeout | null = null;
  // Reads run one at a time, so marks see their results in order.
  let reading: Promise<void> = Promise.resolve();

  const lost = (error?: Error) => {
    onState(false);
    if (checkTimer) clearTimeout(checkTimer);
    checkTimer = null;
    marks = null;
    const stale = client;
    client = null;
    stale?.removeAllListeners();
    stale?.on('error', () => undefined);
    stale?.end().catch(() => undefined);
    if (closed) return;
    if (error) logger.warn({ err: error }, 'change listener lost its connection; caches bypassed until it is back');
    reconnectTimer = setTimeout(() => void connect(), RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]);
    reconnectTimer.unref();
  };

  const read = (): Promise<void> =>
    (reading = reading
      .then(async () => {
        const current = client;
        const currentMarks = marks;
        if (closed || !current || !currentMarks) return;
        let changed: number[];
        try {
          changed = await currentMarks.read(current);
        } catch (error) {
          if (client === current) lost(error as Error);
          return;
        }
        if (client !== current) return;
        attempt = 0;
        for (const projectId of changed) definitionsChanges.publish(projectId === EVERY_PROJECT ? null : projectId);
      })
      .catch((error: unknown) => logger.error({ err: error }, 'change listener failed to apply a change')));

  const schedule = () => {
    if (closed || checkTimer || !marks) return;
    checkTimer = setTimeout(() => {
      checkTimer = null;
      void read().then(schedule);
    }, CHECK_EVERY_MS);
    checkTimer.unref();
  };

  async function connect() {
    reconnectTimer = null;
    const next = new Client({
      connectionString: url,
      application_name: 'flagship-change-listener',
      query_timeout: QUERY_TIMEOUT_MS,
      connectionTimeoutMillis: QUERY_TIMEOUT_MS,
      keepAlive: true,
    });
    client = next;
    next.on('error', lost);
    next.on('end', () => client === next && lost());
    next.on('notification', ({ channel, payload }) => {
      if (channel !== DEFINITIONS_CHANNEL || client !== next) return;
      const { projectId, xid } = parsePayload(payload);
      // Heard before the marks showed it: the next read does not drop the copy again.
      if (projectId !== null && xid !== undefined && marks && !marks.take(projectId, xid)) return;
      definitionsChanges.publish(projectId === EVERY_PROJECT ? null : projectId);
    });
    let started: ChangeMarks;
    try {
      await next.connect();
      if (notifications) await next.query(`LISTEN ${DEFINITIONS_CHANNEL}`);
      started = await ChangeMarks.start(next);
    } catch (error) {
      if (client === next) lost(error as Error);
      return;
    }
    if (closed || client !== next) return;
    marks = started;
    definitionsChanges.publish(null);
    onState(true);
    schedule();
  }

  const stopSettling = definitionsChanges.onSettle(async () => {
    if (!marks) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([read(), new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_WAIT_MS)))]);
    clearTimeout(timer);
  });

  return {
    ready: connect(),
    async close() {
      closed = true;
      stopSettling();
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (checkTimer) clearTimeout(checkTimer);
      reconnectTimer = checkTimer = null;
      onState(false);
      marks = null;
      const last = client;
      client = null;
      last?.removeAllListeners();
      last?.on('error', () => undefined);
      await last?.end().catch(() => undefined);
    },
  };
}
