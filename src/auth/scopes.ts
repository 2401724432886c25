/** Scope objects a key may name (docs/rest-api.md §2.4); other strings are refused at key creation. */
export const SCOPE_OBJECTS = [
  'feature_flag',
  'experiment',
  'activity_log',
  'dashboard',
  'cohort',
  'person',
  // docs/ingestion.md §6: events need query:read, groups and group types group:read.
  'query',
  'group',
  'project',
  'organization',
  // docs/webhooks.md: webhooks and their deliveries.
  'webhook',
] as const;
export type ScopeObject = (typeof SCOPE_OBJECTS)[number];
export type Scope = `${ScopeObject}:${'read' | 'write'}`;

export function isValidScope(scope: string): boolean {
  if (scope === '*') return true;
  const [object, action, extra] = scope.split(':');
  return extra === undefined && (SCOPE_OBJECTS as readonly string[]).includes(object) && (action === 'read' || action === 'write');
}

/** `write` implies `read`; `*` and null/empty scopes allow everything. */
export function scopesAllow(scopes: string[] | null, required: Scope): boolean {
  if (!scopes || scopes.length === 0 || scopes.includes('*')) return true;
  if (scopes.includes(required)) return true;
  const [object, action] = required.split(':');
  return action === 'read' && scopes.includes(`${object}:write`);
}
