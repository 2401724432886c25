import type { EntityManager } from '@mikro-orm/postgresql';
import { generatePersonalApiKey, hashPersonalApiKey, maskPersonalApiKey } from '../../auth/personal-api-key';
import { isValidScope } from '../../auth/scopes';
import { isUuid } from '../../validation/fields';
import type { User } from '../user/user.entity';
import { PersonalApiKey } from './personal-api-key.entity';

export const MAX_KEYS_PER_USER = 10;

export interface KeyOptions {
  label?: string;
  scopes?: string[] | null;
  projects?: number[] | null;
  organizations?: string[] | null;
}

export const PersonalApiKeyService = {
  /** Returns the key in clear text: the only time it is ever shown. */
  async create(em: EntityManager, user: User, options: KeyOptions = {}): Promise<{ key: string; record: PersonalApiKey }> {
    const invalidScope = options.scopes?.find((scope) => !isValidScope(scope));
    if (invalidScope !== undefined) throw new Error(`Invalid scope: ${invalidScope}`);
    const invalidOrganization = options.organizations?.find((id) => !isUuid(id));
    if (invalidOrganization !== undefined) throw new Error(`Invalid organization id: ${invalidOrganization}`);
    if (options.projects?.some((id) => !Number.isInteger(id) || id <= 0)) throw new Error('Project ids must be positive integers.');
    if ((options.label ?? '').length > 40) throw new Error('A label has at most 40 characters.');
    if (user.id && (await em.count(PersonalApiKey, { user: user.id })) >= MAX_KEYS_PER_USER) {
      throw new Error(`A user has at most ${MAX_KEYS_PER_USER} personal API keys.`);
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
};
