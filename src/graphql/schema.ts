import { buildSchema } from 'type-graphql';
import { GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { withDirectFieldResolvers } from './direct-field-resolvers';
import { withoutRestOnlyFields } from './rest-only';
import { ExperimentResolver } from '../modules/experiment/experiment.resolver';
import { FeatureFlagExperimentsResolver } from '../modules/experiment/feature-flag-experiments.resolver';
import { ExperimentResultsResolver } from '../modules/experiment/experiment-results.resolver';
import { FeatureFlagResolver } from '../modules/feature-flag/feature-flag.resolver';
import { FlagEvaluationResolver } from '../modules/flag-evaluation/flag-evaluation.resolver';
import { FeatureFlagReachResolver } from '../modules/flag-evaluation/feature-flag-reach.resolver';
import { CohortResolver } from '../modules/cohort/cohort.resolver';
import { FeatureFlagCohortsResolver } from '../modules/cohort/feature-flag-cohorts.resolver';
import { EventResolver } from '../modules/event/event.resolver';
import { GroupResolver } from '../modules/group/group.resolver';
import { PersonResolver } from '../modules/person/person.resolver';
import { PersonalApiKeyResolver } from '../modules/personal-api-key/personal-api-key.resolver';
import { FeatureFlagRoleAccessResolver } from '../modules/role/feature-flag-role-access.resolver';
import { FeatureFlagRoleAccessFieldResolver } from '../modules/role/feature-flag-role-access-field.resolver';
import { RoleResolver } from '../modules/role/role.resolver';
import { RoleMembershipResolver } from '../modules/role/role-membership.resolver';
import { ResourceAccessResolver } from '../modules/role/resource-access.resolver';
import { OrganizationAccessLevelResolver } from '../modules/role/organization-access-level.resolver';
import { MeResolver } from '../modules/user/me.resolver';
import { OrganizationResolver } from '../modules/organization/organization.resolver';
import { OrganizationCallerLevelResolver, OrganizationMemberResolver } from '../modules/organization/organization-member.resolver';
import { DashboardResolver } from '../modules/dashboard/dashboard.resolver';
import { DashboardTileResolver } from '../modules/dashboard/dashboard-tile.resolver';
import { InsightResolver } from '../modules/dashboard/insight.resolver';
import { FeatureFlagDashboardResolver } from '../modules/dashboard/feature-flag-dashboard.resolver';
import { ActivityResolver } from '../modules/activity/activity.resolver';
import { FeatureFlagActivityResolver } from '../modules/activity/feature-flag-activity.resolver';
import { ExperimentActivityResolver } from '../modules/activity/experiment-activity.resolver';
import { ScheduledChangeResolver } from '../modules/scheduled-change/scheduled-change.resolver';
import { WebhookResolver } from '../modules/webhook/webhook.resolver';

export const resolvers = [
  MeResolver,
  OrganizationResolver,
  OrganizationMemberResolver,
  OrganizationCallerLevelResolver,
  FeatureFlagResolver,
  FlagEvaluationResolver,
  FeatureFlagReachResolver,
  RoleResolver,
  RoleMembershipResolver,
  ResourceAccessResolver,
  OrganizationAccessLevelResolver,
  FeatureFlagRoleAccessResolver,
  FeatureFlagRoleAccessFieldResolver,
  ExperimentResolver,
  FeatureFlagExperimentsResolver,
  ExperimentResultsResolver,
  PersonResolver,
  EventResolver,
  GroupResolver,
  PersonalApiKeyResolver,
  CohortResolver,
  FeatureFlagCohortsResolver,
  DashboardResolver,
  DashboardTileResolver,
  InsightResolver,
  FeatureFlagDashboardResolver,
  ActivityResolver,
  FeatureFlagActivityResolver,
  ExperimentActivityResolver,
  ScheduledChangeResolver,
  WebhookResolver,
] as const;

/** type-graphql builds the root types without a description: these are theirs. */
const ROOT_DESCRIPTIONS: Record<string, string> = {
  Query:
    'Every read. Each field needs a personal API key with the scope its REST twin needs (named in its description). ' +
    "Fields of the objects returned are REST's in camelCase (`createdAt` is `created_at`) unless a description names another.",
  Mutation: 'Every write, with the same key, scope, rights, validation and errors as its REST twin.',
};

const describeRootTypes = (schema: GraphQLSchema): GraphQLSchema =>
  mapSchema(schema, {
    [MapperKind.ROOT_OBJECT]: (type) =>
      ROOT_DESCRIPTIONS[type.name] ? new GraphQLObjectType({ ...type.toConfig(), description: ROOT_DESCRIPTIONS[type.name] }) : type,
  });

let built: Promise<GraphQLSchema> | null = null;
let builtPublic: Promise<GraphQLSchema> | null = null;

/** The whole schema, REST-only fields included: what the REST adapter and the OpenAPI document read. Built once per process. */
export function buildAppSchema(): Promise<GraphQLSchema> {
  // skipCheck: type-graphql would run a whole introspection query to find schema errors, which
  // Apollo's start (assertValidSchema) and test/schema.test.ts find without it.
  const options = { resolvers, validate: false, emitSchemaFile: false, skipCheck: true } as const;
  built ??= buildSchema(options).then((schema) => {
    withDirectFieldResolvers(schema, options);
    return schema;
  });
  return built;
}

/** What /graphql serves: the whole schema less its REST-only fields. The committed SDL (schema/schema.graphql) must match it. */
export function buildPublicSchema(): Promise<GraphQLSchema> {
  builtPublic ??= buildAppSchema().then(withoutRestOnlyFields).then(describeRootTypes);
  return builtPublic;
}
