import { LRUCache } from 'lru-cache';
import { definitionsChanges } from './definitions-changes';
import type { Definitions } from './local-evaluation';

const MAX_PROJECTS = 1000;

/**
 * The SDK definitions body and ETag, built once per project and change (the hot path of every
 * server SDK). An entry is dropped when its project's flags or group types change; a load already
 * under way when that happens still answers its own waiters but is no longer what later requests
 * get. While changes from other processes cannot be heard (`trusted` false), every request loads.
 */
export class DefinitionsCache {
  readonly #entries = new LRUCache<number, Promise<Definitions>>({ max: MAX_PROJECTS });
  readonly #unsubscribe: () => void;
  #trusted: boolean;
  /** How requests were answered, for /metrics (src/http/metrics.ts): plain counts, read when scraped. */
  readonly counts = { hits: 0, misses: 0, bypassed: 0 };

  constructor(
    private readonly load: (projectId: number) => Promise<Definitions>,
    options: { trusted: boolean },
  ) {
    this.#trusted = options.trusted;
    this.#unsubscribe = definitionsChanges.subscribe((projectId) =>
      projectId === null ? this.#entries.clear() : this.#entries.delete(projectId),
    );
  }

  get(projectId: number): Promise<Definitions> {
    if (!this.#trusted) {
      this.counts.bypassed += 1;
      return this.load(projectId);
    }
    const hit = this.#entries.get(projectId);
    if (hit) {
      this.counts.hits += 1;
      return hit;
    }
    this.counts.misses += 1;
    const loading = this.load(projectId);
    this.#entries.set(projectId, loading);
    loading.catch(() => {
      if (this.#entries.get(projectId) === loading) this.#entries.delete(projectId);
    });
    return loading;
  }

  /** Whether cached copies may be served: false while the change listener is disconnected. */
  setTrusted(trusted: boolean): void {
    if (trusted !== this.#trusted) this.#entries.clear();
    this.#trusted = trusted;
  }

  close(): void {
    this.#unsubscribe();
    this.#entries.clear();
  }
}
