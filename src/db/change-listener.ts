import { Client } from 'pg';
import type { Logger } from 'pino';
import { definitionsChanges } from '../modules/flag-evaluation/definitions-changes';

/** The channel the definitions triggers notify (migration Migration20261123160000DefinitionsNotify). */
export const DEFINITIONS_CHANNEL = 'flagship_definitions';
const RECONNECT_MS = [100, 500, 1000, 2000, 5000];

export interface ChangeListener {
  /** Settles once the first connection attempt has ended, listening or not. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * One connection per process that LISTENs for the definitions triggers, so a change committed by
 * another service process on the same PostgreSQL drops this process's cached copy. `onState`
 * tells whether changes can be heard: caches must not be trusted while it is false. After a
 * reconnect every project counts as changed (signals sent meanwhile are lost).
 */
export function listenForChanges(url: string, logger: Logger, onState: (listening: boolean) => void): ChangeListener {
  let client: Client | null = null;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | null = null;

  const lost = (error?: Error) => {
    onState(false);
    if (closed) return;
    if (error) logger.warn({ err: error }, 'change listener lost its connection; caches bypassed until it is back');
    const stale = client;
    client = null;
    stale?.removeAllListeners();
    stale?.end().catch(() => undefined);
    timer = setTimeout(() => void connect(), RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]);
  };

  async function connect() {
    timer = null;
    const next = new Client({ connectionString: url, application_name: 'flagship-change-listener' });
    client = next;
    next.on('error', lost);
    next.on('end', () => client === next && lost());
    next.on('notification', ({ channel, payload }) => {
      if (channel !== DEFINITIONS_CHANNEL) return;
      const projectId = Number(payload);
      definitionsChanges.publish(Number.isInteger(projectId) ? projectId : null);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${DEFINITIONS_CHANNEL}`);
    } catch (error) {
      if (client === next) lost(error as Error);
      return;
    }
    if (closed || client !== next) return;
    attempt = 0;
    definitionsChanges.publish(null);
    onState(true);
  }

  return {
    ready: connect(),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      onState(false);
      const last = client;
      client = null;
      last?.removeAllListeners();
      await last?.end().catch(() => undefined);
    },
  };
}
