import type { AppCaches } from '../../app-caches';
import type { AppContext } from '../../context';
import { storableText } from '../../db/sql';
import { ProjectStore } from './project.store';

export type ProjectToken = 'api_token' | 'secret_api_token';

/**
 * The project a public (`phc_`) or secret (`phs_`) token names, or null. A known token is remembered
 * for CREDENTIAL_TTL_MS (src/app-caches.ts), so SDK polling costs no statement for it; unknown ones
 * are always looked up; `fresh` looks a known one up too. Read through the app's root EntityManager
 * (no unit of work).
 */
export async function projectIdForToken(
  { caches, reads }: { caches: AppCaches; reads: AppContext['reads'] },
  column: ProjectToken,
  token: string,
  fresh = false,
): Promise<number | null> {
  const known = caches.tokens;
  if (token === '' || !storableText(token)) return null;
  const cacheKey = `${column}:${token}`;
  const hit = fresh ? undefined : known.get(cacheKey);
  if (hit !== undefined) return hit;
  const projectId = await ProjectStore.idForToken(reads, column, token);
  if (projectId === null) return null;
  known.set(cacheKey, projectId);
  return projectId;
}
