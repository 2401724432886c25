import { restartDelayMs } from '../../src/cluster/backoff';
import { MAX_WORKERS, workerCount } from '../../src/cluster/worker-count';

/** WEB_CONCURRENCY and the restart backoff (docs/operations.md#workers). */
describe('workerCount', () => {
  it('defaults to one worker per core on PostgreSQL and to 1 on the embedded database', () => {
    expect(workerCount({}, false, 4)).toEqual({ workers: 4 });
    expect(workerCount({ WEB_CONCURRENCY: ' ' }, false, 2)).toEqual({ workers: 2 });
    expect(workerCount({}, true, 4)).toEqual({ workers: 1 });
  });

  it('takes the number asked for on PostgreSQL, 1 included', () => {
    expect(workerCount({ WEB_CONCURRENCY: '3' }, false, 2)).toEqual({ workers: 3 });
    expect(workerCount({ WEB_CONCURRENCY: '1' }, false, 8)).toEqual({ workers: 1 });
  });

  it('lowers more than one worker on the embedded database to 1, with a warning that names the way out', () => {
    const { workers, warning } = workerCount({ WEB_CONCURRENCY: '4' }, true, 4);
    expect(workers).toBe(1);
    expect(warning).toContain('WEB_CONCURRENCY=4 lowered to 1');
    expect(warning).toContain('DATABASE_URL');
    expect(workerCount({ WEB_CONCURRENCY: '1' }, true, 4)).toEqual({ workers: 1 });
  });

  it.each(['0', '-1', 'abc', '2.5', String(MAX_WORKERS + 1), '1e3'])('refuses WEB_CONCURRENCY=%s with the range', (value) => {
    expect(() => workerCount({ WEB_CONCURRENCY: value }, false, 2)).toThrow(
      `WEB_CONCURRENCY must be a whole number from 1 to ${MAX_WORKERS}`,
    );
    expect(() => workerCount({ WEB_CONCURRENCY: value }, true, 2)).toThrow('WEB_CONCURRENCY must be');
  });
});

describe('restartDelayMs', () => {
  it('doubles with each crash within the minute, from 250 ms up to 30 s', () => {
    expect([1, 2, 3, 4].map(restartDelayMs)).toEqual([250, 500, 1000, 2000]);
    expect(restartDelayMs(20)).toBe(30_000);
  });
});
