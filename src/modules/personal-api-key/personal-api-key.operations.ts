import { parse } from 'graphql';
import { authenticate } from '../../auth/access';
import type { RestRequest, RouteAuth } from '../../rest/route';

/**
 * SPEC-GAP: the caller's own personal API keys at PostHog's `/api/personal_api_keys/` (list,
 * create, retrieve, delete). PostHog's flag API makes keys outside the REST surface; these rows add
 * PostHog's endpoint for key hygiene (docs/rest-api.md §2.6). Any valid key may call them (no scope): what a key may do
 * to other keys is decided by the service (personal-api-key.service.ts).
 */
export const ownKeys: RouteAuth = {
  describe: "any valid personal API key; only the caller's own keys",
  check: (ctx) => authenticate(ctx),
};

/** PostHog's serializer fields; `value` is the key itself, null except in the create's answer. */
const FRAGMENT = /* GraphQL */ `
  fragment RestPersonalApiKey on PersonalApiKey {
    id
    label
    value
    mask_value: maskValue
    created_at: createdAt
    last_used_at: lastUsedAt
    user_id: userId
    scopes
    scoped_teams: scopedTeams
    scoped_organizations: scopedOrganizations
  }
`;

/** A plain list, newest first, as PostHog answers it (a user has at most 10 keys). */
export const personalApiKeysList = {
  document: parse(`query RestPersonalApiKeys { item: personalApiKeys { ...RestPersonalApiKey } }\n${FRAGMENT}`),
  variables: () => ({}),
};

export const personalApiKeyById = {
  document: parse(`query RestPersonalApiKey($id: ID!) { item: personalApiKey(id: $id) { ...RestPersonalApiKey } }\n${FRAGMENT}`),
  variables: ({ params }: RestRequest, written?: { id: number | string }) => ({ id: String(written?.id ?? params.id) }),
};
