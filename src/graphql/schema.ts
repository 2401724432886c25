import { buildSchema } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { ExperimentResolver, FeatureFlagExperimentsResolver } from '../modules/experiment/experiment.resolver';
import { ExperimentResultsResolver } from '../modules/experiment/experiment-results.resolver';
import { FeatureFlagResolver } from '../modules/feature-flag/feature-flag.resolver';
import { FlagEvaluationResolver } from '../modules/flag-evaluation/flag-evaluation.resolver';
import { CohortResolver, FeatureFlagCohortsResolver } from '../modules/cohort/cohort.resolver';
import { EventResolver } from '../modules/event/event.resolver';
import { GroupResolver } from '../modules/group/group.resolver';
import { PersonResolver } from '../modules/person/person.resolver';
import { PersonalApiKeyResolver } from '../modules/personal-api-key/personal-api-key.resolver';
import { FeatureFlagRoleAccessFieldResolver, FeatureFlagRoleAccessResolver } from '../modules/role/feature-flag-role-access.resolver';
import {
  OrganizationAccessLevelResolver,
  ResourceAccessResolver,
  RoleMembershipResolver,
  RoleResolver,
} from '../modules/role/role.resolver';
import { MeResolver, OrganizationResolver } from '../modules/user/me.resolver';
import {
  DashboardResolver,
  DashboardTileResolver,
  FeatureFlagDashboardResolver,
  InsightResolver,
} from '../modules/dashboard/dashboard.resolver';
import { ActivityResolver, ExperimentActivityResolver, FeatureFlagActivityResolver } from '../modules/activity/activity.resolver';

export const resolvers = [
  MeResolver,
  OrganizationResolver,
  FeatureFlagResolver,
  FlagEvaluationResolver,
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
] as const;

let built: Promise<GraphQLSchema> | null = null;

/** Built once per process; the committed SDL (schema/schema.graphql) must match it. */
export function buildAppSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({ resolvers, validate: false, emitSchemaFile: false });
  return built;
}
