/**
 * "A project's SDK definitions changed": published by a writer after its transaction commits (so
 * the writer's next read sees the change), and by the change listener when another process
 * commits one. Process-wide: a signal is only ever a reason to drop a cached copy, so one that
 * reaches an app on another database costs a cache miss, never a wrong answer.
 */
type Listener = (projectId: number | null) => void;
type Settler = () => Promise<void>;

const listeners = new Set<Listener>();
const settlers = new Set<Settler>();

export const definitionsChanges = {
  /** `null`: every project (the listener reconnected and may have missed signals). */
  publish(projectId: number | null): void {
    for (const listener of listeners) listener(projectId);
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /**
   * After a write this process committed: lets each change listener read the database's change
   * marks now, so the write's own mark is taken in before the writer answers and does not drop
   * the copies again a second later (src/db/change-listener.ts). Never throws.
   */
  async settle(): Promise<void> {
    await Promise.allSettled([...settlers].map((settle) => settle()));
  },
  onSettle(settler: Settler): () => void {
    settlers.add(settler);
    return () => settlers.delete(settler);
  },
};

/**
 * Runs a write that may change a project's flags or group types on `em`, and signals the change once
 * it has ended (committed or not). Settling waits for the change listeners to read the marks, so it
 * follows a commit only: inside an outer transaction (the CLI's import, one transaction for the whole
 * file) the marks cannot show the write yet, and on the embedded database, which runs one
 * transaction at a time, the listener's read would wait for the outer one to end.
 */
export async function changingDefinitions<T>(em: { isInTransaction(): boolean }, projectId: number, write: () => Promise<T>): Promise<T> {
  const commits = !em.isInTransaction();
  try {
    return await write();
  } finally {
    definitionsChanges.publish(projectId);
    if (commits) await definitionsChanges.settle();
  }
}
