import { LRUCache } from 'lru-cache';
import type { Caller } from './auth/access';
import type { LocalEvaluationAccess } from './auth/local-evaluation-access';
import type { Clock } from './clock';
import type { ProjectForUser } from './modules/project/project.store';

/**
 * SPEC-GAP: how long a credential's or a token's lookup is remembered per process, so a polling SDK
 * or a busy script costs no statement per request; a revoked key, a deactivated user, a removed member
 * or a rotated token is refused within this time. Only lookups that succeed are remembered.
 */
export const CREDENTIAL_TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

/** The app's caches of lookups, each entry living CREDENTIAL_TTL_MS on the app's clock. */
export interface AppCaches {
  /** Personal keys (by their hash) and who they authenticate (src/auth/access.ts). */
  callers: LRUCache<string, Caller>;
  /** Granted local-evaluation requests: credential, path project and `?token=` (src/auth/local-evaluation-access.ts). */
  localEvaluation: LRUCache<string, LocalEvaluationAccess>;
  /** The project a public or secret token names (src/modules/project/project.tokens.ts). */
  tokens: LRUCache<string, number>;
  /** Members' standings in projects, for checks that ask a read scope (src/auth/access.ts). */
  standings: RememberedStandings;
}

/**
 * A member's standing in a project (ProjectStore.forUser), by `standingKey(user, project)`. `forget`
 * (this process changed roles, role memberships or resource access) drops them all, `forgetUser` a
 * user's in every project (a lookup found the user no longer a member); both start a new generation:
 * a lookup that began before is not remembered when it ends, so a read in flight cannot put back
 * what was found stale.
 */
export class RememberedStandings {
  private generation = 0;
  constructor(private readonly entries: LRUCache<string, ProjectForUser>) {}

  get(key: string): ProjectForUser | undefined {
    return this.entries.get(key);
  }

  /** What a lookup hands back to `remember` when it ends. */
  get current(): number {
    return this.generation;
  }

  remember(key: string, standing: ProjectForUser, lookedUpIn: number): void {
    if (lookedUpIn === this.generation) this.entries.set(key, standing);
  }

  forgetUser(userId: number): void {
    this.generation += 1;
    const prefix = standingKey(userId, '');
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  forget(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

export const standingKey = (userId: number, projectId: number | '') => `${userId} ${projectId}`;

export function createAppCaches(clock: Clock): AppCaches {
  // lru-cache reads the time through `perf`, and each entry's age is checked on every read. With its
  // default ttlResolution (1 ms) it would keep a read time for a millisecond behind a timer: a timer
  // per read on the hot path, and a moved test clock unseen by the next request when that timer has
  // not fired yet.
  const options = { max: MAX_ENTRIES, ttl: CREDENTIAL_TTL_MS, ttlResolution: 0, perf: clock } as const;
  return {
    callers: new LRUCache(options),
    localEvaluation: new LRUCache(options),
    tokens: new LRUCache(options),
    standings: new RememberedStandings(new LRUCache(options)),
  };
}
