import type { Route } from '../../rest/route';
import { ownKeys, personalApiKeyById, personalApiKeysList } from './personal-api-key.operations';
import type { PersonalApiKeyInput } from './personal-api-key.resolver';
import { PersonalApiKeyService } from './personal-api-key.service';

const PERSONAL_API_KEYS = '/api/personal_api_keys';
const PERSONAL_API_KEY = `${PERSONAL_API_KEYS}/:id`;

// SPEC-GAP: the caller's own personal API keys, as PostHog serves them (docs/rest-api.md §2.6): a plain
// list, create (the key shown once), retrieve and delete; `:id` may be `@current` (the calling key). PATCH/PUT: 405.
export const personalApiKeyRoutes: Route[] = [
  { method: 'GET', path: PERSONAL_API_KEYS, auth: ownKeys, kind: 'query', operation: personalApiKeysList, status: 200, shape: 'one' },
  {
    method: 'POST',
    path: PERSONAL_API_KEYS,
    auth: ownKeys,
    kind: 'mutation',
    inputType: 'PersonalApiKeyInput',
    call: (ctx, { input }) => PersonalApiKeyService.createForCaller(ctx, input as PersonalApiKeyInput),
    render: personalApiKeyById,
    status: 201,
    shape: 'one',
  },
  { method: 'GET', path: PERSONAL_API_KEY, auth: ownKeys, kind: 'query', operation: personalApiKeyById, status: 200, shape: 'one' },
  {
    method: 'DELETE',
    path: PERSONAL_API_KEY,
    auth: ownKeys,
    kind: 'mutation',
    call: (ctx, { params }) => PersonalApiKeyService.revoke(ctx, params.id),
    status: 204,
    shape: 'empty',
  },
];
