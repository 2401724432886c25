// A worker's side of the primary-held rate limits, in a process of its own whose parent (the test)
// plays the primary: told {hits, timeoutMs}, it checks one bucket that many times and reports back.
import pino from 'pino';
import { Writable } from 'node:stream';
import { PrimarySlidingWindowStore } from '../../src/http/primary-sliding-window';

const warnings: unknown[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    warnings.push(JSON.parse(String(chunk)));
    done();
  },
});

process.on('message', (message: { hits?: number; timeoutMs?: number }) => {
  if (!message.hits) return;
  void (async () => {
    const store = new PrimarySlidingWindowStore(pino({ level: 'warn' }, sink), { timeoutMs: message.timeoutMs });
    const answers: Array<{ admitted: boolean; ms: number }> = [];
    for (let i = 0; i < message.hits!; i++) {
      const started = Date.now();
      const result = await store.hit([{ key: 'flagship:ratelimit:{key:1}:burst', limit: 2, windowMs: 60_000 }]);
      answers.push({ admitted: result.admitted, ms: Date.now() - started });
    }
    await store.close();
    process.send!({ answers, warnings });
  })();
});
