import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization } from '../modules/organization/organization.entity';
import { OrganizationService, type MembershipLevelName } from '../modules/organization/organization.service';
import { hashPersonalApiKey } from '../auth/personal-api-key';
import { PersonalApiKey } from '../modules/personal-api-key/personal-api-key.entity';
import { PersonalApiKeyService, presentKey } from '../modules/personal-api-key/personal-api-key.service';
import { ProjectService } from '../modules/project/project.service';
import { User } from '../modules/user/user.entity';
import { UserService } from '../modules/user/user.service';
import { LookupFailed } from './lookup-failed';

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
  if (!user) throw new LookupFailed(`User not found: ${email}`);
  return user;
}

async function organizationById(em: EntityManager, id: string): Promise<Organization> {
  const organization = /^[0-9a-f-]{36}$/i.test(id) ? await em.findOne(Organization, id.toLowerCase()) : null;
  if (!organization) throw new LookupFailed(`Organization not found: ${id}`);
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
    const projects = list(options.projects)?.map((id) => positiveInteger(id, 'projects')) ?? null;
    const organizations = list(options.organizations);
    const limits = { projects: projects && [...new Set(projects)], organizations: organizations && [...new Set(organizations)] };
    const { key, record } = await PersonalApiKeyService.create(em, user, { label: options.label, scopes: list(options.scopes), ...limits });
    // The API's checks, once create has checked the ids' form: only projects and organizations the user is a member of.
    await PersonalApiKeyService.refuseUnreachableLimits(em, user.id, record.scopedTeams, record.scopedOrganizations);
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
    if (!record) throw new LookupFailed('Personal API key not found');
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

  // The flag commands load the REST and GraphQL layers, so they are required only when run (help stays quick).
  async 'flags:export'(em, options) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { exportFlags, projectIdOption, writeOrReturn } = require('./flags') as typeof import('./flags');
    return writeOrReturn(await exportFlags(em, projectIdOption(options.project), options.email), options.out);
  },

  async 'flags:import'(em, options) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { importFlags, projectIdOption } = require('./flags') as typeof import('./flags');
    return importFlags(em, projectIdOption(options.project), required(options, 'file'), options.email);
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
  'out',
];

interface CommandHelp {
  /** Options and positional arguments, as typed. */
  usage: string;
  /** One whole sentence for the command list of `--help` (at most 100 characters). */
  summary: string;
  /** What it does and prints. */
  description: string;
  /** Positional arguments the command takes, by name, in order (they arrive as options). */
  positionals?: string[];
}

/** `<command> --help` and the command list of `--help`: the one output that is text, not JSON. */
export const COMMAND_HELP: Record<string, CommandHelp> = {
  bootstrap: {
    usage: '--email <e> [--first-name <n>] [--organization <name>] [--project <name>]',
    summary: 'Creates an organization, a project, its owner and an unscoped key.',
    description:
      'Creates an organization, a project (both tokens), the user as owner and an unscoped key.\nPrints {"organization_id", "project_id", "project_api_token", "project_secret_token", "user", "personal_api_key"}.',
  },
  'user:create': {
    usage: '--organization <uuid> --email <e> [--first-name <n>] [--level member|admin|owner]',
    summary: 'Adds a user to an organization, with an unscoped key.',
    description:
      'Adds a user to an organization (default level member) with an unscoped key.\nPrints {"user": {…}, "personal_api_key": "phx_…"}.',
  },
  'key:create': {
    usage: '--email <e> [--scopes a:read,b:write] [--projects 1,2] [--organizations <uuid>,…] [--label <l>]',
    summary: 'Creates a personal API key for a user (shown this once).',
    description: 'Creates a personal API key for a user. Prints {"personal_api_key": "phx_…", "id": n}; the key is shown this once.',
  },
  'key:list': {
    usage: '--email <e>',
    summary: "Lists a user's keys, newest first, masked.",
    description:
      'Lists a user\'s keys, newest first, masked.\nPrints {"user": {…}, "keys": [{id, label, mask_value, scopes, scoped_teams, scoped_organizations, created_at, last_used_at}]}.',
  },
  'key:revoke': {
    usage: '--key <phx_…> | --key - (read from standard input) | --id <n>',
    summary: 'Deletes a key; running servers refuse it within a second.',
    description: 'Deletes a key. Prints {"revoked": {…}}; running servers refuse the key within a second.',
  },
  'project:create': {
    usage: '--organization <uuid> --name <name>',
    summary: 'Creates a project in an organization.',
    description: 'Creates a project. Prints {"project_id", "project_api_token", "project_secret_token"}.',
  },
  'flags:export': {
    usage: '--project <id> [--out <file>] [--email <e>]',
    summary: "Writes a project's flags, and the cohorts they use, as JSON.",
    description: [
      "Writes the project's non-deleted flags, newest first, exactly as the REST list shows them, in one",
      'envelope {"count", "next": null, "previous": null, "results": [...], "cohorts": [...]}, where',
      '"cohorts" holds the cohorts the flags use (nested ones first) as the REST API shows them. Without',
      '--out the export is the JSON printed; with --out it goes to the file and {"written": <file>,',
      '"count": n} is printed.',
      "Acts as --email (a member of the organization), else the organization's earliest owner.",
    ].join('\n'),
  },
  'flags:import': {
    usage: '--project <id> <file> [--email <e>]',
    summary: "Creates or updates flags by key from an export (ours or PostHog's); all or nothing.",
    positionals: ['file'],
    description: [
      "Creates or updates flags by key from a flags:export file, or from PostHog's flag list export (the",
      'list answer {"results": [...]} or the results array alone). Every flag and cohort goes through the',
      "API's validation, limits and edit rights (1 MiB each as JSON, JSON fields nested at most 999",
      'levels, no NUL or lone surrogate; docs/operations.md). Taken from each entry: key, name, filters, active,',
      'ensure_experience_continuity, rollback_conditions, performed_rollback, tags; everything else (id,',
      'created_by, created_at, version, usage_dashboard, analytics_dashboards, experiment_set, ...) belongs',
      'to the source project and is ignored. Entries with "deleted": true are skipped. The file\'s',
      '"cohorts" are matched by name (created, or updated to the file\'s definition; static ones arrive',
      "without members) and the flags' cohort ids renamed to the target's; a flag naming a cohort the",
      'file does not list is refused.',
      'Prints {"project_id", "written", "summary", "results": [{index, key, status, id?, reason?, error?}],',
      '"cohorts": [{index, source_id, name, status, id?, note?, error?}]}',
      'with status created | updated | unchanged | skipped | error. All or nothing: if any flag or cohort is',
      'refused, nothing is written and the exit code is 1; the report is still printed with "written": false,',
      'and what would have been written says so: status would_create (no id: none was committed) or',
      'would_update (the existing id), and "summary" counts would_create and would_update.',
      'Importing the same file again reports every flag unchanged. A progress bar is drawn on standard',
      'error when it is a terminal.',
    ].join('\n'),
  },
};

export const HELP = `Usage: npm run --silent cli -- <command> [--option value …]
       npm run --silent cli -- <command> --help

Prints exactly one JSON object on standard output; errors go to standard error with exit code 1.
Uses DATABASE_URL / DATA_DIR like the server (beside a running embedded server, through it).

Commands:
${Object.entries(COMMAND_HELP)
  .map(([name, help]) => `  ${name.padEnd(15)}${help.usage}\n${' '.repeat(17)}${help.summary}`)
  .join('\n')}
`;

export function commandHelp(name: string): string {
  const help = COMMAND_HELP[name];
  return `Usage: npm run --silent cli -- ${name} ${help.usage}\n\n${help.description}\n`;
}
