import { buildSchema } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { ExperimentResolver, FeatureFlagExperimentsResolver } from '../modules/experiment/experiment.resolver';
import { FeatureFlagResolver } from '../modules/feature-flag/feature-flag.resolver';
import { FlagEvaluationResolver } from '../modules/flag-evaluation/flag-evaluation.resolver';
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
  PersonResolver,
  EventResolver,
  GroupResolver,
  PersonalApiKeyResolver,
] as const;

let built: Promise<GraphQLSchema> | null = null;

/** Built once per process; the committed SDL (schema/schema.graphql) must match it. */
export function buildAppSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({ resolvers, validate: false, emitSchemaFile: false });
  return built;
}
