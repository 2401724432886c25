import type { EntityManager } from '@mikro-orm/postgresql';

interface Waiter<R> {
  resolve(row: R | undefined): void;
  reject(error: unknown): void;
}

interface Batch<R> {
  em: EntityManager;
  scope: number;
  waiters: Map<string, Array<Waiter<R>>>;
}

/**
 * Lookups by key within a scope (a project) asked during one turn of the event loop, answered by one
 * statement for all of them: under load, the requests read from the sockets in one turn share a
 * round trip to PostgreSQL instead of one each (its writes and wake-ups were about a fifth of
 * `/flags`' time). A lone request's statement is sent in the same turn, after its I/O callbacks
 * (`setImmediate`), so it waits for nothing. At most `maxKeys` keys go into one statement; a full
 * batch is sent at once. When the statement fails, every lookup in it fails with its error. A lookup
 * in a transaction is never shared: it runs alone, on the transaction's connection.
 */
export class BatchedLookup<R> {
  private pending = new Map<number, Batch<R>>();
  private scheduled = false;

  constructor(
    private readonly run: (em: EntityManager, scope: number, keys: string[]) => Promise<Map<string, R>>,
    private readonly maxKeys = 64,
  ) {}

  /** The row for `key` in `scope`, or undefined when there is none. In a transaction, alone: it must see the transaction's writes. */
  get(em: EntityManager, scope: number, key: string): Promise<R | undefined> {
    if (em.isInTransaction()) return this.run(em, scope, [key]).then((rows) => rows.get(key));
    return new Promise((resolve, reject) => {
      let batch = this.pending.get(scope);
      if (batch === undefined) this.pending.set(scope, (batch = { em, scope, waiters: new Map() }));
      const waiting = batch.waiters.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else batch.waiters.set(key, [{ resolve, reject }]);
      if (batch.waiters.size >= this.maxKeys) {
        this.pending.delete(scope);
        this.send(batch);
      } else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          const batches = [...this.pending.values()];
          this.pending.clear();
          for (const each of batches) this.send(each);
        });
      }
    });
  }

  private send({ em, scope, waiters }: Batch<R>): void {
    this.run(em, scope, [...waiters.keys()]).then(
      (rows) => {
        for (const [key, each] of waiters) for (const waiter of each) waiter.resolve(rows.get(key));
      },
      (error: unknown) => {
        for (const each of waiters.values()) for (const waiter of each) waiter.reject(error);
      },
    );
  }
}
