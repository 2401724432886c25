import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * A worker whose primary does not answer (docs/operations.md#workers): each check waits at most the
 * bound, then counts in the worker's own memory, with one warning, as the Redis store does when Redis
 * is unreachable (docs/rest-api.md §1.6 stays enforced, per worker). The exact, shared case runs
 * through real workers in test/operations/workers.test.ts.
 */
let child: ChildProcess;

afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
});

function run(hits: number, timeoutMs: number, answerAfterMs: number | null) {
  child = fork(path.join(__dirname, '../helpers/ts-process.js'), [path.join(__dirname, '../helpers/sliding-window-child.ts')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const asked: unknown[] = [];
  return new Promise<{ answers: Array<{ admitted: boolean; ms: number }>; warnings: Array<Record<string, unknown>>; asked: unknown[] }>(
    (resolve) => {
      child.on('message', (message: { type?: string; id?: number; answers?: unknown }) => {
        if (message.type === 'flagship:rate-limit:hit') {
          asked.push(message);
          // A primary too late: its answer arrives after the worker has decided without it.
          if (answerAfterMs !== null) {
            setTimeout(() => {
              // The child may be exiting: a late answer it cannot take is dropped, never an uncaught EPIPE.
              if (child.connected)
                child.send(
                  {
                    type: 'flagship:rate-limit:result',
                    id: message.id,
                    result: { admitted: false, buckets: [{ count: 99, waitMs: 1 }] },
                  },
                  () => undefined,
                );
            }, answerAfterMs);
          }
        } else if (message.answers) resolve({ ...(message as { answers: never; warnings: never }), asked });
      });
      child.send({ hits, timeoutMs });
    },
  );
}

describe('PrimarySlidingWindowStore when the primary does not answer', () => {
  it('waits at most its bound per check, then counts in the worker (2 admitted, the third refused) and warns once', async () => {
    const { answers, warnings, asked } = await run(3, 150, null);
    expect(asked).toHaveLength(3);
    expect(answers.map((a) => a.admitted)).toEqual([true, true, false]);
    for (const answer of answers) {
      expect(answer.ms).toBeGreaterThanOrEqual(140);
      expect(answer.ms).toBeLessThan(2000);
    }
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'rate limits: primary unavailable, counting in this worker until it answers',
        reason: 'no answer within 150 ms',
        fallback_requests: 1,
      }),
    ]);
  });

  it('ignores an answer that comes after the bound', async () => {
    const { answers } = await run(2, 100, 300);
    expect(answers.map((a) => a.admitted)).toEqual([true, true]);
  });
});
