import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';

/**
 * docs/operations.md, "The database" (the embedded one): its socket server runs one client's query whole,
 * even when another client's transaction starts between the query's messages. Before, a query with
 * parameters (Parse, Bind, Execute, Sync) lost its portal to such a transaction ("portal does not
 * exist", "unnamed prepared statement does not exist") under concurrent requests.
 */
let dataDir: string;
let server: ChildProcess;
const clients: Client[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'flags-embedded-concurrency-'));
  server = spawn(
    process.execPath,
    [path.join(__dirname, '../helpers/ts-process.js'), path.join(__dirname, '../helpers/embedded-server.ts'), dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // A promise settles once: the exit of the stopped server later (afterAll) is not a second answer.
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: server.stdout! }).once('line', resolve);
    server.once('exit', (code) => reject(new Error(`the embedded database exited with ${code}`)));
  });
  for (let i = 0; i < 6; i++) {
    const client = new Client(url);
    await client.connect();
    clients.push(client);
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end()));
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it('answers each client its own rows while other clients run transactions', async () => {
  const answers = await Promise.allSettled(
    clients.map(async (client, c) => {
      let answered = 0;
      for (let n = 0; n < 40; n++) {
        const inTransaction = c % 2 === 1;
        if (inTransaction) await client.query('begin');
        // Named (prepared once per connection) and unnamed statements alike.
        const statement = n % 2 === 0 ? { name: `own_value_${c}` } : {};
        const { rows } = await client.query({
          ...statement,
          text: 'select $1::int as value, $2::text as who',
          values: [c * 1000 + n, `c${c}`],
        });
        if (inTransaction) await client.query('commit');
        expect(rows).toEqual([{ value: c * 1000 + n, who: `c${c}` }]);
        answered++;
      }
      return answered;
    }),
  );
  expect(answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : String(answer.reason)))).toEqual(clients.map(() => 40));
}, 20_000);
