import { ArgsType, Field, InputType, Int } from 'type-graphql';

/** Inputs are loose at the type level: the services answer missing and wrong values with the API's messages. */
@InputType()
export class RoleInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => Int, { nullable: true, description: '21 (can only view) or 37 (can always edit); defaults to the organization level.' })
  featureFlagsAccessLevel?: number | null;
}

@InputType()
export class RoleMembershipInput {
  @Field(() => String, { nullable: true }) userUuid?: string | null;
}

@InputType()
export class ResourceAccessInput {
  @Field(() => String, { nullable: true, description: 'Only "feature flags".' }) resource?: string | null;
  @Field(() => Int, { nullable: true }) accessLevel?: number | null;
}

@InputType()
export class FeatureFlagRoleAccessInput {
  @Field(() => String, { nullable: true }) roleId?: string | null;
}

@ArgsType()
export class PageArgsInput {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true }) offset?: number | null;
}
