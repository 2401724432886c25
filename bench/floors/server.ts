/**
 * The floors' server, its own process: bare Koa (no router, no body parser, no ORM) answering the
 * service's paths, so the same load runs against both. FLOOR_DATABASE_URL and FLOOR_POOL name the
 * database; the definitions bytes arrive over IPC once the service has served them.
 */
import { createServer } from 'node:http';
import Koa from 'koa';
import { createPool } from '../pg';
import { definitionsFloor, type ServedDefinitions } from './definitions';
import { flagFloors } from './flags';

const LIST = /^\/api\/projects\/(\d+)\/feature_flags\/?$/;
const ONE = /^\/api\/projects\/(\d+)\/feature_flags\/(\d+)\/?$/;

async function main() {
  const pool = createPool(process.env.FLOOR_DATABASE_URL!, Number(process.env.FLOOR_POOL ?? 10));
  const definitions = definitionsFloor();
  const flags = flagFloors(pool);

  const app = new Koa();
  app.use(async (ctx) => {
    const { method, path } = ctx;
    let match: RegExpExecArray | null;
    if (method === 'GET' && (path === '/flags/definitions' || path === '/api/feature_flag/local_evaluation'))
      return definitions.handle(ctx);
    if (method === 'POST' && path === '/graphql') return flags.graphqlList(ctx);
    if ((match = LIST.exec(path))) return method === 'POST' ? flags.create(ctx, Number(match[1])) : flags.list(ctx, Number(match[1]));
    if (method === 'GET' && (match = ONE.exec(path))) return flags.retrieve(ctx, Number(match[1]), Number(match[2]));
    ctx.status = 404;
  });

  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler settles every request's errors itself
  const server = createServer(app.callback()).listen(0, '127.0.0.1', () => {
    process.send!({ ready: (server.address() as { port: number }).port });
  });
  process.on('message', (message: { definitions?: ServedDefinitions[] }) => {
    definitions.serve(message.definitions ?? []);
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

main().catch((error) => {
  process.stderr.write(`floor server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
