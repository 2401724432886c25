import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization } from '../modules/organization/organization.entity';
import { OrganizationService, type MembershipLevelName } from '../modules/organization/organization.service';
import { PersonalApiKeyService } from '../modules/personal-api-key/personal-api-key.service';
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

const list = (value: string | undefined) => (value ? value.split(',').map((item) => item.trim()).filter(Boolean) : null);

function positiveInteger(value: string, name: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`--${name} must be a positive integer.`);
  return Number(value);
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
    const email = required(options, 'email').toLowerCase();
    const user = await em.findOne(User, { email });
    if (!user) throw new Error(`User not found: ${email}`);
    const { key, record } = await PersonalApiKeyService.create(em, user, {
      label: options.label,
      scopes: list(options.scopes),
      projects: list(options.projects)?.map((id) => positiveInteger(id, 'projects')) ?? null,
      organizations: list(options.organizations),
    });
    await em.flush();
    return { personal_api_key: key, id: record.id };
  },

  async 'project:create'(em, options) {
    const organization = await organizationById(em, required(options, 'organization'));
    const project = ProjectService.create(em, organization, required(options, 'name'));
    await em.flush();
    return { project_id: project.id, project_api_token: project.apiToken, project_secret_token: project.secretApiToken };
  },
};

export const OPTION_NAMES = ['email', 'first-name', 'organization', 'project', 'level', 'scopes', 'projects', 'organizations', 'label', 'name'];
