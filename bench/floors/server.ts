/**
 * The floors' server, its own process, answering the service's paths so the same load runs against
 * both: plain `node:http` + `pg` for the admin reads and `/flags` (sql-floors.ts), bare Koa (no
 * router, no body parser, no ORM) for definitions and create. FLOOR_DATABASE_URL and FLOOR_POOL name
 * the database; the definitions bytes and the `/flags` answers' sizes arrive over IPC once the
 * service has served them. FLOOR_PROCESSES=N (> 1) runs N such processes behind one port
 * (node:cluster), this one relaying: the workers row's floor.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import Koa from 'koa';
import { createPool } from '../pg';
import { definitionsFloor, type ServedDefinitions } from './definitions';
import { flagFloors } from './flags';
import { sqlFloors, type ServedFlags } from './sql-floors';

const LIST = /^\/api\/projects\/(\d+)\/feature_flags\/?$/;

async function main() {
  const pool = createPool(process.env.FLOOR_DATABASE_URL!, Number(process.env.FLOOR_POOL ?? 10));
  const definitions = definitionsFloor();
  const flags = flagFloors(pool);
  const plain = sqlFloors(pool);

  const app = new Koa();
  app.use(async (ctx) => {
    const { method, path } = ctx;
    let match: RegExpExecArray | null;
    if (method === 'GET' && (path === '/flags/definitions' || path === '/api/feature_flag/local_evaluation'))
      return definitions.handle(ctx);
    if (method === 'POST' && (match = LIST.exec(path))) return flags.create(ctx, Number(match[1]));
    ctx.status = 404;
  });

  const koa = app.callback();
  const server = createServer((req, res) => {
    if (!plain.handle(req, res)) void koa(req, res);
  }).listen(0, '127.0.0.1', () => {
    process.send!({ ready: (server.address() as { port: number }).port });
  });
  process.on('message', (message: { definitions?: ServedDefinitions[]; flags?: ServedFlags }) => {
    if (message.definitions) definitions.serve(message.definitions);
    if (message.flags) plain.serveFlags(message.flags);
    process.send!({ ack: true });
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  // Bounded lifetime: a floor whose parent is gone stops too.
  process.on('disconnect', stop);
}

/**
 * The cluster's primary: says ready (the shared port) once every process listens, hands each message
 * to all of them and acks once all have.
 */
function relay(processes: number) {
  const workers = Array.from({ length: processes }, () => cluster.fork());
  let ready = 0;
  let acks = 0;
  let stopping = false;
  for (const worker of workers) {
    worker.on('message', (message: { ready?: number; ack?: boolean }) => {
      if (message.ready && ++ready === processes) process.send!({ ready: message.ready });
      if (message.ack && ++acks === processes) {
        acks = 0;
        process.send!({ ack: true });
      }
    });
    worker.on('exit', (code: number | null) => {
      if (!stopping) {
        process.stderr.write(`floor server: a worker exited (${code})\n`);
        process.exit(1);
      }
    });
  }
  process.on('message', (message) => workers.forEach((worker) => worker.send(message as object)));
  const stop = () => {
    stopping = true;
    for (const worker of workers) worker.kill('SIGTERM');
    void Promise.all(
      workers.map((worker) => new Promise((resolve) => (worker.isDead() ? resolve(null) : worker.once('exit', resolve)))),
    ).then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

const processes = Number(process.env.FLOOR_PROCESSES ?? 1);
if (cluster.isPrimary && processes > 1) relay(processes);
else
  main().catch((error) => {
    process.stderr.write(`floor server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
