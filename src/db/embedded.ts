// pglite-socket multiplexes ALL clients onto ONE PGlite session: startup parameters (database, user, options=-c search_path,
// application_name) are ignored - any database name lands in "postgres" - and SET/search_path, temp tables, named prepared
// statements and advisory locks are shared by every connection and outlive it. Nothing per-connection is isolated.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { link, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { sequenceAwareSession } from './embedded-session';
import { StartRefusal } from '../start-refusal';

export interface EmbeddedDatabase {
  url: string;
  maxConnections: number;
  stop(): Promise<void>;
}

// Server pool (6) + its change listener (1) + a CLI beside it (1) + one spare slot, since the
// socket server frees a slot only after the client's socket has fully closed.
const DEFAULT_MAX_CONNECTIONS = 9;

// Memory. PGlite is PostgreSQL compiled to WASM: the whole backend lives in one WebAssembly.Memory
// that starts at 128 MiB (the module's minimum: `initialMemory` cannot go lower), grows on demand
// and never shrinks, so whatever the backend allocates once stays resident. initdb writes
// shared_buffers = 128MB into postgresql.conf, and that segment (with wal_buffers, 1/32 of it) is
// allocated and zeroed at start: the heap is at ~190 MiB, all resident, before the first query.
// With 16MB it stays at its 128 MiB minimum; the data files sit in the OS page cache anyway (NODEFS
// reads them with read(2)), and the service's CPU per request did not change. maintenance_work_mem
// (64MB by default) bounds what one CREATE INDEX or VACUUM can add to the heap for good. Given as
// `-c` after PGlite's own start parameters, they override postgresql.conf without rewriting it.
// work_mem (4MB) and temp_buffers (8MB, only for temporary tables) keep PostgreSQL's defaults.
const POSTGRES_SETTINGS: Record<string, string> = {
  shared_buffers: '16MB',
  maintenance_work_mem: '16MB',
};
const startParams = () => [
  ...PGlite.defaultStartParams,
  ...Object.entries(POSTGRES_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
];

// How long a start waits for a live holder of the directory to let go (a server still shutting
// down, or one being torn down after SIGKILL) before giving up.
const DEFAULT_LOCK_WAIT_MS = 5000;
const LOCK_POLL_MS = 50;

const socketFile = (dataDir: string) => path.join(dataDir, 'socket.json');
// The lock is taken before PGlite opens the directory; socket.json only exists once we serve,
// so it cannot guard the seconds-long initialisation window.
const lockFile = (dataDir: string) => path.join(dataDir, 'embedded.lock');
// Held for the few milliseconds it takes to remove a dead holder's lock, so two processes that
// both found it dead cannot both remove it (the second would delete the first one's new lock).
const takeoverFile = (dataDir: string) => path.join(dataDir, 'embedded.lock.takeover');
const INITDB_PREFIX = '.initdb-';
const openedHere = new Set<string>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Who holds a lock: the pid, and where /proc exists, which process had that pid (start time, boot). */
interface Holder {
  pid: number;
  start?: string;
  boot?: string;
}

function readProcStat(pid: number): { state: string; flags: number; start: string } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
  // Then field 3 (state) is [0], field 9 (flags) is [6] and field 22 (starttime) is [19].
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], flags: Number(fields[6]), start: fields[19] };
}

const hasProc = existsSync('/proc/self/stat');
let bootId: string | undefined;
function currentBoot(): string | undefined {
  if (bootId === undefined && hasProc) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      bootId = '';
    }
  }
  return bootId || undefined;
}

function self(): Holder {
  return { pid: process.pid, start: readProcStat(process.pid)?.start, boot: currentBoot() };
}

function parseHolder(text: string): Holder | null {
  const trimmed = text.trim();
  // Locks written before the holder's identity was recorded hold just the pid.
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const value = JSON.parse(trimmed) as Partial<Holder>;
    if (typeof value.pid !== 'number' || !(value.pid > 0)) return null;
    return {
      pid: value.pid,
      start: typeof value.start === 'string' ? value.start : undefined,
      boot: typeof value.boot === 'string' ? value.boot : undefined,
    };
  } catch {
    return null;
  }
}

const PF_EXITING = 0x4;

/**
 * Whether the process named by `holder` can still run. It cannot once it is gone, a zombie
 * (killed, not yet reaped by its parent), or being torn down (PF_EXITING: after SIGKILL the kernel
 * frees its memory before it becomes a zombie, which took ~1 s for a large heap; it never returns
 * to user space, so it can write nothing more), and it is not the holder when its pid now belongs
 * to another process (start time or boot differs: a restarted container reuses pids).
 */
function processAlive(holder: Holder): boolean {
  if (!hasProc) {
    try {
      process.kill(holder.pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  if (holder.boot && currentBoot() && holder.boot !== currentBoot()) return false;
  const proc = readProcStat(holder.pid);
  if (!proc || proc.state === 'Z' || proc.state === 'X' || proc.state === 'x') return false;
  if (proc.flags & PF_EXITING) return false;
  return !holder.start || holder.start === proc.start;
}

/** Whether the writer of a lock on dataDir may still use the directory. */
function holderAlive(holder: Holder, dataDir: string): boolean {
  if (holder.pid === process.pid && (!holder.start || holder.start === self().start)) {
    // Our own pid is stale (e.g. a container restart reusing it) unless this process really has
    // the directory open.
    return openedHere.has(dataDir);
  }
  return processAlive(holder);
}

/**
 * Creates `file` holding `content`: false if it exists. Through a hard link, so readers never see
 * it empty; where the file system has no hard links, an exclusive create (a reader may then
 * briefly see it empty, which counts as held).
 */
async function createExclusive(file: string, content: string): Promise<boolean> {
  const draft = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(draft, content);
  try {
    await link(draft, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    return writeFile(file, content, { flag: 'wx' }).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
  } finally {
    await rm(draft, { force: true });
  }
}

const readText = (file: string) => readFile(file, 'utf8').catch(() => null);

/**
 * Removes the lock if it still holds `stale` (a dead holder's), under the takeover guard; false
 * when another starter holds the guard.
 */
async function removeStaleLock(dataDir: string, stale: string, me: string): Promise<boolean> {
  const guard = takeoverFile(dataDir);
  if (!(await createExclusive(guard, me))) {
    // Another starter is removing it right now. A guard outliving its dead writer for a while
    // (killed within those milliseconds) is cleared; the caller then simply tries again.
    const text = await readText(guard);
    const writer = text === null ? null : parseHolder(text);
    const age = await stat(guard).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (text !== null && (writer === null || !holderAlive(writer, dataDir)) && age > 2000) {
      await rm(guard, { force: true });
    }
    return false;
  }
  try {
    if ((await readText(lockFile(dataDir))) === stale) await rm(lockFile(dataDir), { force: true });
    return true;
  } finally {
    await rm(guard, { force: true });
  }
}

async function acquireLock(dataDir: string, waitMs: number): Promise<void> {
  const lock = lockFile(dataDir);
  const me = JSON.stringify(self());
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (await createExclusive(lock, me)) {
      // Nobody may remove a live holder's lock, but be sure before PGlite touches a file.
      if ((await readText(lock)) === me) return;
      throw new Error(`Could not lock embedded database ${dataDir} (${lock} was replaced by another process).`);
    }
    const text = await readText(lock);
    if (text === null) continue; // released meanwhile
    const holder = parseHolder(text);
    if (holder && !holderAlive(holder, dataDir)) {
      if (!(await removeStaleLock(dataDir, text, me))) await sleep(LOCK_POLL_MS);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new StartRefusal(
        holder
          ? `Embedded database ${dataDir} is already open by process ${holder.pid}; stop it first ` +
              `(or delete ${lock} if that process is not this service).`
          : `Embedded database ${dataDir} is locked by ${lock}, which names no process; delete it if no ` + `server uses this directory.`,
      );
    }
    await sleep(LOCK_POLL_MS);
  }
}

/**
 * First start only: runs initdb in a child process. In-process, PGlite's initdb takes a second
 * PGlite instance, the initdb WASM program, a full copy of the second instance's heap and a tar
 * of the new cluster; they are garbage once it is done, but V8 frees them only at a major GC, so
 * the process sat at ~800 MB for a while (high-water mark ~850-900 MB) before serving its first
 * request. A child process returns all of it to the OS when it exits. It builds the cluster in a
 * scratch directory that is moved into place with PG_VERSION last, so an interrupted first start
 * (or an orphaned child) never leaves a half-made cluster that looks complete.
 */
async function initialiseCluster(dataDir: string): Promise<void> {
  for (const entry of await readdir(dataDir)) {
    if (entry.startsWith(INITDB_PREFIX)) await rm(path.join(dataDir, entry), { recursive: true, force: true }).catch(() => undefined);
  }
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const scratch = path.join(dataDir, `${INITDB_PREFIX}${process.pid}-${Date.now()}`);
  const script =
    'const [pglite, dir, params] = process.argv.slice(1);' +
    'require(pglite).PGlite.create(dir, { startParams: JSON.parse(params) }).then((db) => db.close()).then(' +
    '() => process.exit(0), (e) => { process.stderr.write(String((e && e.stack) || e)); process.exit(1); });';
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(
        process.execPath,
        ['-e', script, require.resolve('@electric-sql/pglite'), scratch, JSON.stringify(startParams())],
        { maxBuffer: 16 * 1024 * 1024 },
        (error, _stdout, stderr) =>
          error ? reject(new Error(`Could not initialise embedded database ${dataDir}: ${stderr.trim() || error.message}`)) : resolve(),
      );
    });
    const entries = (await readdir(scratch)).filter((entry) => entry !== 'PG_VERSION');
    for (const entry of [...entries, 'PG_VERSION']) {
      await rm(path.join(dataDir, entry), { recursive: true, force: true });
      await rename(path.join(scratch, entry), path.join(dataDir, entry));
    }
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Opens (creating if needed) a PGlite data directory and serves it on 127.0.0.1 (random port). */
export async function startEmbeddedDatabase(options: {
  dataDir: string;
  maxConnections?: number;
  /** How long to wait for a live process holding the directory to release it (default 5 s). */
  lockWaitMs?: number;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  await mkdir(dataDir, { recursive: true });
  await acquireLock(dataDir, options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS);
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
    await initialiseCluster(dataDir);
    db = await PGlite.create(dataDir, { startParams: startParams() });
    server = new PGLiteSocketServer({ db: sequenceAwareSession(db) as PGlite, host: '127.0.0.1', port: 0, maxConnections });
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

/** For the CLI while the server runs: if a live embedded server owns dataDir, return its URL, else null. */
export async function findRunningEmbeddedDatabase(dataDir: string): Promise<string | null> {
  let info: { pid?: unknown; url?: unknown };
  try {
    info = JSON.parse(await readFile(socketFile(path.resolve(dataDir)), 'utf8'));
  } catch {
    return null;
  }
  if (typeof info.pid !== 'number' || typeof info.url !== 'string') return null;
  if (!processAlive({ pid: info.pid })) return null;
  return (await canConnect(info.url)) ? info.url : null;
}
