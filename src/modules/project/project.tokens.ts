import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { storableText } from '../../db/sql';
import { ProjectStore } from './project.store';

export type ProjectToken = 'api_token' | 'secret_api_token';

/** How long a token's project is remembered per process: a rotated token stops working within this. */
export const TOKEN_TTL_MS = 1000;
const known = new LRUCache<string, number>({ max: 10_000, ttl: TOKEN_TTL_MS });

/**
 * The project a public (`phc_`) or secret (`phs_`) token names, or null. SPEC-GAP: a known token
 * is remembered for a second, so SDK polling costs no statement for it; unknown ones are always looked up.
 */
export async function projectIdForToken(em: EntityManager, column: ProjectToken, token: string): Promise<number | null> {
  if (token === '' || !storableText(token)) return null;
  const cacheKey = `${column}:${token}`;
  const hit = known.get(cacheKey);
  if (hit !== undefined) return hit;
  const projectId = await ProjectStore.idForToken(em, column, token);
  if (projectId === null) return null;
  known.set(cacheKey, projectId);
  return projectId;
}
