import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization } from '../modules/organization/organization.entity';
import { OrganizationService, type MembershipLevelName } from '../modules/organization/organization.service';
import { hashPersonalApiKey } from '../auth/personal-api-key';
import { PersonalApiKey } from '../modules/personal-api-key/personal-api-key.entity';
import { PersonalApiKeyService, presentKey } from '../modules/personal-api-key/personal-api-key.service';
import { ProjectService } from '../modules/project/project.service';
import { User } from '../modules/user/user.entity';
import { UserService } from '../modules/user/user.service';

export type Options = Record<string, string | undefined>;

const userJson = (user: User) => ({ id: user.id, uuid: user.uuid, distinct_id: user.distinctId, email: user.email });

function required(options: Options, name: string): string {
  const value = options[name]?.trim();
  if (!value) throw new Error(`--${name} is required.`);
  return value;
}

const list = (value: string | undefined) =>
  value
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : null;

function positiveInteger(value: string, name: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`--${name} must be a positive integer.`);
  return Number(value);
}

async function userByEmail(em: EntityManager, options: Options): Promise<User> {
  const email = required(options, 'email').toLowerCase();
  const user = await em.findOne(User, { email });
  if (!user) throw new Error(`User not found: ${email}`);
  return user;
}

async function organizationById(em: EntityManager, id: string): Promise<Organization> {
  const organization = /^[0-9a-f-]{36}$/i.test(id) ? await em.findOne(Organization, id.toLowerCase()) : null;
  if (!organization) throw new Error(`Organization not found: ${id}`);
  return organization;
}

/** Each command runs in one transaction and returns the one JSON object the CLI prints. */
export const commands: Record<string, (em: EntityManager, options: Options) => Promise<Record<string, unknown>>> = {
  async bootstrap(em, options) {
    const organization = OrganizationService.create(em, options.organization ?? 'Default organization');
    const project = ProjectService.create(em, organization, options.project ?? 'Default project');
    await em.flush();
    const user = await UserService.create(em, { email: required(options, 'email'), firstName: options['first-name'] });
    await OrganizationService.addMember(em, organization, user, 'owner');
    const { key } = await PersonalApiKeyService.create(em, user, { label: 'bootstrap' });
    await em.flush();
    return {
      organization_id: organization.id,
      project_id: project.id,
      project_api_token: project.apiToken,
      project_secret_token: project.secretApiToken,
      user: userJson(user),
      personal_api_key: key,
    };
  },

  async 'user:create'(em, options) {
    const organization = await organizationById(em, required(options, 'organization'));
    const level = (options.level ?? 'member') as MembershipLevelName;
    if (!['member', 'admin', 'owner'].includes(level)) throw new Error('--level must be member, admin or owner.');
    const user = await UserService.create(em, { email: required(options, 'email'), firstName: options['first-name'] });
    await OrganizationService.addMember(em, organization, user, level);
    const { key } = await PersonalApiKeyService.create(em, user);
    await em.flush();
    return { user: userJson(user), personal_api_key: key };
  },

  async 'key:create'(em, options) {
    const user = await userByEmail(em, options);
    const { key, record } = await PersonalApiKeyService.create(em, user, {
      label: options.label,
      scopes: list(options.scopes),
      projects: list(options.projects)?.map((id) => positiveInteger(id, 'projects')) ?? null,
      organizations: list(options.organizations),
    });
    await em.flush();
    return { personal_api_key: key, id: record.id };
  },

  /** A user's keys, newest first: what the API's list shows, never the key or its digest. */
  async 'key:list'(em, options) {
    const user = await userByEmail(em, options);
    const keys = await em.find(PersonalApiKey, { user: user.id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    return { user: userJson(user), keys: keys.map(presentKey) };
  },

  /** Deletes a key named by itself (`--key phx_…`, or `--key -` to read it from standard input) or by `--id`. */
  async 'key:revoke'(em, options) {
    const value = options.key?.trim();
    const id = options.id?.trim();
    if (!value === !id) throw new Error('Give exactly one of --key <phx_…> and --id <n>.');
    const record = value
      ? await em.findOne(PersonalApiKey, { secureValue: hashPersonalApiKey(value) }, { populate: ['user'] })
      : await em.findOne(PersonalApiKey, { id: positiveInteger(id!, 'id') }, { populate: ['user'] });
    if (!record) throw new Error('Personal API key not found.');
    await em.nativeDelete(PersonalApiKey, { id: record.id });
    // Running servers stop accepting it within a second (CREDENTIAL_TTL_MS, src/auth/access.ts).
    return { revoked: { ...presentKey(record), user: userJson(record.user) } };
  },

  async 'project:create'(em, options) {
    const organization = await organizationById(em, required(options, 'organization'));
    const project = ProjectService.create(em, organization, required(options, 'name'));
    await em.flush();
    return { project_id: project.id, project_api_token: project.apiToken, project_secret_token: project.secretApiToken };
  },
};

export const OPTION_NAMES = [
  'email',
  'first-name',
  'organization',
  'project',
  'level',
  'scopes',
  'projects',
  'organizations',
  'label',
  'name',
  'key',
  'id',
];

/** `--help`: the one output that is text, not JSON. */
export const HELP = `Usage: npm run --silent cli -- <command> [--option value …]

Prints exactly one JSON object on standard output; errors go to standard error with exit code 1.
Uses DATABASE_URL / DATA_DIR like the server (beside a running embedded server, through it).

Commands:
  bootstrap      --email <e> [--first-name <n>] [--organization <name>] [--project <name>]
                 an organization, a project (both tokens), the user as owner, an unscoped key
  user:create    --organization <uuid> --email <e> [--first-name <n>] [--level member|admin|owner]
                 {"user": {…}, "personal_api_key": "phx_…"}
  key:create     --email <e> [--scopes a:read,b:write] [--projects 1,2] [--organizations <uuid>,…] [--label <l>]
                 {"personal_api_key": "phx_…", "id": n} (the key is shown this once)
  key:list       --email <e>
                 {"user": {…}, "keys": [{id, label, mask_value, scopes, scoped_teams, scoped_organizations, created_at, last_used_at}]}
  key:revoke     --key <phx_…> | --key - (read from standard input) | --id <n>
                 {"revoked": {…}}; servers refuse the key within a second
  project:create --organization <uuid> --name <name>
                 {"project_id", "project_api_token", "project_secret_token"}
`;
