import { AsyncResource } from 'node:async_hooks';
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
 * in a transaction is never shared: it runs alone, on the transaction's connection. Batches are kept
 * per database connection (two apps in one process never share one), and a statement is sent from
 * no caller's async context, so MikroORM's transaction context of whoever asked first (an
 * AsyncLocalStorage) cannot carry the others' lookups into a transaction.
 */
export class BatchedLookup<R> {
  /** By the database connection (`em.getConnection()`), then the scope. */
  private pending = new Map<object, Map<number, Batch<R>>>();
  private scheduled = false;
  /** Runs its argument in the async context of the class's creation (a module's load): no request's. */
  private readonly apart = AsyncResource.bind((work: () => void) => work());

  constructor(
    private readonly run: (em: EntityManager, scope: number, keys: string[]) => Promise<Map<string, R>>,
    private readonly maxKeys = 64,
  ) {}

  /**
   * The row for `asked` in `scope`, or undefined when there is none. In a transaction, alone: it must
   * see the transaction's writes. A lone surrogate in `asked` stands for U+FFFD, as the driver sends it
   * (UTF-8) and as the row comes back.
   */
  get(em: EntityManager, scope: number, asked: string): Promise<R | undefined> {
    const key = asked.toWellFormed();
    if (em.isInTransaction()) return this.run(em, scope, [key]).then((rows) => rows.get(key));
    return new Promise((resolve, reject) => {
      const database = em.getConnection();
      let scopes = this.pending.get(database);
      if (scopes === undefined) this.pending.set(database, (scopes = new Map()));
      let batch = scopes.get(scope);
      if (batch === undefined) scopes.set(scope, (batch = { em, scope, waiters: new Map() }));
      const waiting = batch.waiters.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else batch.waiters.set(key, [{ resolve, reject }]);
      if (batch.waiters.size >= this.maxKeys) {
        scopes.delete(scope);
        const full = batch;
        this.apart(() => this.send(full));
      } else if (!this.scheduled) {
        this.scheduled = true;
        this.apart(() => setImmediate(() => this.flush()));
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batches = [...this.pending.values()].flatMap((scopes) => [...scopes.values()]);
    this.pending.clear();
    for (const batch of batches) this.send(batch);
  }

  private send({ em, scope, waiters }: Batch<R>): void {
    let answered: Promise<Map<string, R>>;
    try {
      answered = this.run(em, scope, [...waiters.keys()]);
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.then(
      (rows) => {
        for (const [key, each] of waiters) for (const waiter of each) waiter.resolve(rows.get(key));
      },
      (error: unknown) => {
        for (const each of waiters.values()) for (const waiter of each) waiter.reject(error);
      },
    );
  }
}
