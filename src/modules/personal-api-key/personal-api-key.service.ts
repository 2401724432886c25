import { keyErrors } from './personal-api-key.errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import { authenticate, parseId, type CallerKey } from '../../auth/access';
import { generatePersonalApiKey, hashPersonalApiKey, maskPersonalApiKey } from '../../auth/personal-api-key';
import { isValidScope, scopesAllow, type Scope } from '../../auth/scopes';
import type { AppContext } from '../../context';
import { fieldErrors, requestErrors } from '../../errors';
import { formatTimestamp } from '../../graphql/scalars';
import { hasField, isUuid, parseInteger, parseList, parseString, requireObject } from '../../validation/fields';
import { User } from '../user/user.entity';
import { PersonalApiKey } from './personal-api-key.entity';
import { PersonalApiKeyStore } from './personal-api-key.store';

export const MAX_KEYS_PER_USER = 10;
const MAX_LABEL_LENGTH = 40;

export interface KeyOptions {
  label?: string;
  scopes?: string[] | null;
  projects?: number[] | null;
  organizations?: string[] | null;
}

/** What limits a key: its scopes and the projects and organizations it is limited to (null or empty: none). */
export interface KeyLimits {
  scopes: string[] | null;
  scopedTeams: number[] | null;
  scopedOrganizations: string[] | null;
}

const unlimitedScopes = (scopes: string[] | null) => !scopes || scopes.length === 0 || scopes.includes('*');

/**
 * SPEC-GAP: a key may create (or revoke) only keys with no more access than its own: every scope
 * of the new key is allowed by the caller's (`*` or no scopes only from an unscoped key), and a
 * caller limited to projects or organizations may only make keys limited to some of those.
 */
export function isWithin(candidate: KeyLimits, caller: KeyLimits): boolean {
  const scopesWithin =
    unlimitedScopes(caller.scopes) ||
    (!unlimitedScopes(candidate.scopes) &&
      candidate.scopes!.every((scope) => isValidScope(scope) && scopesAllow(caller.scopes, scope as Scope)));
  const listWithin = <T>(mine: T[] | null, theirs: T[] | null) =>
    !theirs?.length || (!!mine?.length && mine.every((item) => theirs.includes(item)));
  return (
    scopesWithin &&
    listWithin(candidate.scopedTeams, caller.scopedTeams) &&
    listWithin(candidate.scopedOrganizations, caller.scopedOrganizations)
  );
}

/** The wire form (REST, CLI): PostHog's fields; `scopes` null or empty shows as `["*"]`. Never the key or its digest. */
export function presentKey(record: PersonalApiKey) {
  return {
    id: record.id,
    label: record.label,
    mask_value: record.maskValue,
    scopes: shownScopes(record),
    scoped_teams: record.scopedTeams,
    scoped_organizations: record.scopedOrganizations,
    created_at: formatTimestamp(record.createdAt),
    last_used_at: record.lastUsedAt ? formatTimestamp(record.lastUsedAt) : null,
  };
}

export const shownScopes = (record: { scopes: string[] | null }) => (record.scopes?.length ? record.scopes : ['*']);

/**
 * Keys revealed in a request: the key a create made, by record id, for as long as the request
 * lives. The `value` field reads it, so only the create's own answer ever carries the key.
 */
const revealed = new WeakMap<object, Map<number, string>>();

export const revealedValue = (ctx: AppContext, id: number): string | null => revealed.get(ctx)?.get(id) ?? null;

/** The caller's own key `idRef` (a positive id or `@current`, the calling key), else 404. */
async function findOwnKey(ctx: AppContext, idRef: unknown): Promise<{ record: PersonalApiKey; key: CallerKey }> {
  const { user, key } = await authenticate(ctx);
  const id = idRef === '@current' ? key.id : parseId(idRef);
  const record = id ? await ctx.em.findOne(PersonalApiKey, { id, user: user.id }) : null;
  if (!record) throw requestErrors.notFound();
  return { record, key };
}

/** A list of text items, each parsed like a string field (attr names the list, as DRF's ListField does). */
function parseTextList(value: unknown, attr: string): string[] | null {
  const list = parseList(value, attr, { nullable: true });
  return list === null ? null : list.map((item) => parseString(item, attr)!);
}

/** A key may be limited only to projects whose organization the user is a member of (400). */
async function refuseUnreachableProjects(em: EntityManager, userId: number, projects: number[] | null): Promise<void> {
  if (!projects?.length) return;
  const reachable = await PersonalApiKeyStore.memberProjects(em, userId, projects);
  if (reachable.size !== new Set(projects).size) throw keyErrors.notMemberOfProjects();
}

/** A key may be limited only to organizations the user is a member of (400). */
async function refuseUnreachableOrganizations(em: EntityManager, userId: number, organizations: string[] | null): Promise<void> {
  if (!organizations?.length) return;
  const joined = await PersonalApiKeyStore.memberOrganizations(em, userId, organizations);
  if (joined.size !== new Set(organizations).size) throw keyErrors.notMemberOfOrganizations();
}

/** `scopes`, `scoped_teams` and `scoped_organizations` of an API create, in that order. */
async function parseLimits(ctx: AppContext, user: { id: number }, input: Record<string, unknown>): Promise<KeyLimits> {
  if (!hasField(input, 'scopes')) throw fieldErrors.required('scopes');
  const scopes = parseTextList(input.scopes, 'scopes');
  if (scopes === null) throw fieldErrors.null('scopes');
  const invalid = scopes.find((scope) => !isValidScope(scope));
  if (invalid !== undefined) throw keyErrors.invalidScope(invalid);

  const teams = hasField(input, 'scopedTeams') ? parseList(input.scopedTeams, 'scoped_teams', { nullable: true }) : null;
  const scopedTeams =
    teams?.map((item) => {
      const id = parseInteger(item, 'scoped_teams')!;
      if (parseId(id) === null) throw keyErrors.notMemberOfProjects();
      return id;
    }) ?? null;
  await refuseUnreachableProjects(ctx.em, user.id, scopedTeams);

  const organizations = hasField(input, 'scopedOrganizations') ? parseTextList(input.scopedOrganizations, 'scoped_organizations') : null;
  const scopedOrganizations =
    organizations?.map((id) => {
      if (!isUuid(id)) throw fieldErrors.notAUuid('scoped_organizations');
      return id.toLowerCase();
    }) ?? null;
  await refuseUnreachableOrganizations(ctx.em, user.id, scopedOrganizations);
  return {
    scopes,
    scopedTeams: scopedTeams?.length ? scopedTeams : null,
    scopedOrganizations: scopedOrganizations?.length ? scopedOrganizations : null,
  };
}

export const PersonalApiKeyService = {
  /** The API's membership checks of a key's limits, for a writer that takes them from elsewhere (the CLI's key:create). */
  async refuseUnreachableLimits(em: EntityManager, userId: number, projects: number[] | null, organizations: string[] | null) {
    await refuseUnreachableProjects(em, userId, projects);
    await refuseUnreachableOrganizations(em, userId, organizations);
  },

  /**
   * Makes a key for `user` inside the caller's transaction (CLI, factories, the API create).
   * Returns the key in clear text: the only time it is ever shown. The user's row is locked, so
   * concurrent creates cannot pass the per-user limit together.
   */
  async create(em: EntityManager, user: User, options: KeyOptions = {}): Promise<{ key: string; record: PersonalApiKey }> {
    const invalidScope = options.scopes?.find((scope) => !isValidScope(scope));
    if (invalidScope !== undefined) throw keyErrors.invalidScope(invalidScope);
    const invalidOrganization = options.organizations?.find((id) => !isUuid(id));
    if (invalidOrganization !== undefined) throw keyErrors.invalidOrganizationId(invalidOrganization);
    if (options.projects?.some((id) => parseId(id) === null)) throw keyErrors.invalidProjectIds();
    if ((options.label ?? '').length > MAX_LABEL_LENGTH) throw fieldErrors.maxLength('label', MAX_LABEL_LENGTH);
    if (user.id) {
      await PersonalApiKeyStore.lockUser(em, user.id);
      if ((await em.count(PersonalApiKey, { user: user.id })) >= MAX_KEYS_PER_USER) throw keyErrors.tooMany(MAX_KEYS_PER_USER);
    }
    const key = generatePersonalApiKey();
    const record = em.create(PersonalApiKey, {
      user,
      label: options.label ?? '',
      secureValue: hashPersonalApiKey(key),
      maskValue: maskPersonalApiKey(key),
      scopes: options.scopes?.length ? options.scopes : null,
      scopedTeams: options.projects?.length ? options.projects : null,
      scopedOrganizations: options.organizations?.length ? options.organizations.map((id) => id.toLowerCase()) : null,
    });
    return { key, record };
  },

  /** The caller's keys, newest first (a user has at most 10). */
  async list(ctx: AppContext): Promise<PersonalApiKey[]> {
    const { user } = await authenticate(ctx);
    return ctx.em.find(PersonalApiKey, { user: user.id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  },

  async get(ctx: AppContext, idRef: unknown): Promise<PersonalApiKey> {
    return (await findOwnKey(ctx, idRef)).record;
  },

  /**
   * `POST /api/personal_api_keys/`: PostHog's fields and messages (`label` and `scopes` required),
   * then the caller's own limits (403), then the per-user limit (400).
   */
  async createForCaller(ctx: AppContext, raw: unknown): Promise<PersonalApiKey> {
    const { user, key: callerKey } = await authenticate(ctx);
    const input = requireObject(raw);
    if (!hasField(input, 'label')) throw fieldErrors.required('label');
    const label = parseString(input.label, 'label', { maxLength: MAX_LABEL_LENGTH })!;
    const limits = await parseLimits(ctx, user, input);
    if (!isWithin(limits, callerKey)) throw keyErrors.broaderThanCaller();
    const { key, record } = await ctx.em.transactional(async (em) => {
      const created = await PersonalApiKeyService.create(em, em.getReference(User, user.id), {
        label,
        scopes: limits.scopes,
        projects: limits.scopedTeams,
        organizations: limits.scopedOrganizations,
      });
      await em.flush();
      return created;
    });
    const shown = revealed.get(ctx) ?? new Map<number, string>();
    shown.set(record.id, key);
    revealed.set(ctx, shown);
    return record;
  },

  /**
   * Deletes one of the caller's keys (`@current`: the calling key itself). A key may always revoke
   * itself; another of the user's keys only if it has no more access than the caller's.
   * Processes that authenticated it in the last CREDENTIAL_TTL_MS refuse it once that has passed.
   */
  async revoke(ctx: AppContext, idRef: unknown): Promise<PersonalApiKey> {
    const { record, key } = await findOwnKey(ctx, idRef);
    if (record.id !== key.id && !isWithin(record, key)) throw keyErrors.revokeBroader();
    await ctx.em.nativeDelete(PersonalApiKey, { id: record.id });
    return record;
  },
};
