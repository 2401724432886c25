// pglite-socket multiplexes ALL clients onto ONE PGlite session: startup parameters (database, user, options=-c search_path,
// application_name) are ignored - any database name lands in "postgres" - and SET/search_path, temp tables, named prepared
// statements and advisory locks are shared by every connection and outlive it. Nothing per-connection is isolated.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  url: string;
  maxConnections: number;
  stop(): Promise<void>;
}

// Server pool (~5) + a CLI beside it (1-2) + one spare slot, since the socket server frees a
// slot only after the client's socket has fully closed.
const DEFAULT_MAX_CONNECTIONS = 8;

const socketFile = (dataDir: string) => path.join(dataDir, 'socket.json');
// The lock is taken before PGlite opens the directory; socket.json only exists once we serve,
// so it cannot guard the seconds-long initialisation window.
const lockFile = (dataDir: string) => path.join(dataDir, 'embedded.lock');
const openedHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function canConnect(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function acquireLock(dataDir: string): Promise<void> {
  const lock = lockFile(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
    // Our own pid in the lock is stale (e.g. container restart reusing the pid) unless this
    // process really has the directory open.
    const owned = pid === process.pid ? openedHere.has(dataDir) : pid > 0 && isAlive(pid);
    if (owned) {
      throw new Error(
        `Embedded database ${dataDir} is already open by process ${pid}; stop it first ` +
          `(or delete ${lock} if that process is not this service).`,
      );
    }
    await rm(lock, { force: true });
  }
  throw new Error(`Could not lock embedded database ${dataDir} (${lock} keeps reappearing).`);
}

/** Opens (creating if needed) a PGlite data directory and serves it on 127.0.0.1 (random port). */
export async function startEmbeddedDatabase(options: {
  dataDir: string;
  maxConnections?: number;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  await mkdir(dataDir, { recursive: true });
  await acquireLock(dataDir);
  openedHere.add(dataDir);

  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  const shutdown = async () => {
    await rm(socketFile(dataDir), { force: true });
    await server?.stop();
    if (db && !db.closed) await db.close();
    openedHere.delete(dataDir);
    await rm(lockFile(dataDir), { force: true });
  };

  try {
    db = await PGlite.create(dataDir);
    server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
    await server.start();
  } catch (err) {
    await shutdown().catch(() => undefined);
    throw err;
  }
  // getServerConn() is "host:port" with the OS-assigned port once start() resolved.
  const url = `postgresql://postgres:postgres@${server.getServerConn()}/postgres`;
  await writeFile(socketFile(dataDir), JSON.stringify({ pid: process.pid, url }));

  let stopping: Promise<void> | undefined;
  return { url, maxConnections, stop: () => (stopping ??= shutdown()) };
}

/** For the CLI while the server runs: if a live embedded server owns dataDir, return its URL, else null. */
export async function findRunningEmbeddedDatabase(dataDir: string): Promise<string | null> {
  let info: { pid?: unknown; url?: unknown };
  try {
    info = JSON.parse(await readFile(socketFile(path.resolve(dataDir)), 'utf8'));
  } catch {
    return null;
  }
  if (typeof info.pid !== 'number' || typeof info.url !== 'string') return null;
  if (!isAlive(info.pid)) return null;
  return (await canConnect(info.url)) ? info.url : null;
}
