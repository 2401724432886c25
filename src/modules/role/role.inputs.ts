import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { FlagAccessLevelName } from './role.entity';

/**
 * Role and access inputs: what a create or replace needs is non-null. REST reads bodies with its
 * own lenient rules and the API's messages (src/rest/input.ts); the services check values for both.
 */
@InputType({ description: 'A new role, or a whole one (replaceRole).' })
export class RoleCreateInput {
  @Field(() => String, { description: 'Unique in the organization, case-insensitively; up to 200 characters.' }) name!: string;
  @Field(() => FlagAccessLevelName, { nullable: true, description: "Its members' flag access; the organization's level when not sent." })
  featureFlagsAccessLevel?: number | null;
}

@InputType({ description: 'A partial update of a role.' })
export class RoleUpdateInput {
  @Field(() => String, { nullable: true, description: 'Unique in the organization, case-insensitively; up to 200 characters.' })
  name?: string | null;
  @Field(() => FlagAccessLevelName, { nullable: true, description: "Its members' flag access." }) featureFlagsAccessLevel?: number | null;
}

@InputType({ description: 'A member of the organization to add to a role.' })
export class RoleMembershipInput {
  @Field(() => String, { description: "The user's UUID." }) userUuid!: string;
}

@InputType({ description: "The organization's access record for a resource." })
export class ResourceAccessCreateInput {
  @Field(() => String, { description: 'Only "feature flags".' }) resource!: string;
  @Field(() => FlagAccessLevelName, { nullable: true, description: 'CAN_ALWAYS_EDIT when not sent.' }) accessLevel?: number | null;
}

@InputType({ description: 'A partial update of an access record.' })
export class ResourceAccessUpdateInput {
  @Field(() => String, { nullable: true, description: 'Only "feature flags" (it cannot change).' }) resource?: string | null;
  @Field(() => FlagAccessLevelName, { nullable: true, description: 'The new level.' }) accessLevel?: number | null;
}

@InputType({ description: 'A whole access record (replaceResourceAccess): `accessLevel` is required.' })
export class ResourceAccessReplaceInput {
  @Field(() => String, { nullable: true, description: 'Only "feature flags" (it cannot change).' }) resource?: string | null;
  @Field(() => FlagAccessLevelName, { description: 'The new level.' }) accessLevel!: number;
}

@InputType({ description: 'A role to grant edit rights on a flag.' })
export class FeatureFlagRoleAccessInput {
  @Field(() => String, { description: "The role's UUID (a role of the flag's organization)." }) roleId!: string;
}

@ArgsType()
export class PageArgsInput {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many to skip: default 0.' }) offset?: number | null;
}
