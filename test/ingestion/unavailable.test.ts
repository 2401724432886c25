import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import { ormConfig } from '../../mikro-orm.config';
import { createApp } from '../../src/app';
import { fetchChecked } from '../helpers/openapi-contract';

// docs/ingestion.md §1.3: with the database down, capture answers 503 (SDKs retry it), never 500.
it('answers 503 when the database cannot be reached', async () => {
  const config = ormConfig('postgresql://postgres@127.0.0.1:1/none', { poolSize: 1 });
  const orm = await MikroORM.init({ ...config, connect: false, pool: { ...config.pool, acquireTimeoutMillis: 2000 } });
  const { app, stop } = await createApp({ orm, logger: pino({ level: 'silent' }) });
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler settles every request's errors itself
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetchChecked(`http://127.0.0.1:${(server.address() as AddressInfo).port}/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: 'phc_whatever', batch: [{ event: 'x', distinct_id: 'd' }] }),
    });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      type: 'server_error',
      code: 'server_error',
      detail: 'Unable to store events. Please try again.',
      attr: null,
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await stop();
    await orm.close(true);
  }
});
