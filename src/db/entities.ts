import { Organization } from '../modules/organization/organization.entity';
import { OrganizationMembership } from '../modules/organization/organization-membership.entity';
import { Project } from '../modules/project/project.entity';
import { User } from '../modules/user/user.entity';
import { PersonalApiKey } from '../modules/personal-api-key/personal-api-key.entity';
import { FeatureFlag } from '../modules/feature-flag/feature-flag.entity';
import { Dashboard } from '../modules/dashboard/dashboard.entity';
import { DashboardTile } from '../modules/dashboard/dashboard-tile.entity';
import { Role } from '../modules/role/role.entity';
import { RoleMembership } from '../modules/role/role-membership.entity';
import { OrganizationResourceAccess } from '../modules/role/organization-resource-access.entity';
import { FeatureFlagRoleAccess } from '../modules/role/feature-flag-role-access.entity';
import { Experiment } from '../modules/experiment/experiment.entity';
import { Person } from '../modules/person/person.entity';
import { PersonDistinctId } from '../modules/person/person-distinct-id.entity';
import { Event } from '../modules/event/event.entity';
import { GroupTypeMapping } from '../modules/group/group-type-mapping.entity';
import { Group } from '../modules/group/group.entity';
import { Cohort } from '../modules/cohort/cohort.entity';
import { ScheduledChange } from '../modules/scheduled-change/scheduled-change.entity';
import { Webhook, WebhookDelivery } from '../modules/webhook/webhook.entity';

/** Every entity, listed explicitly: no folder discovery, so ts (tests) and js (dist) agree. */
export const entities = [
  Organization,
  OrganizationMembership,
  Project,
  User,
  PersonalApiKey,
  FeatureFlag,
  Dashboard,
  DashboardTile,
  Role,
  RoleMembership,
  OrganizationResourceAccess,
  FeatureFlagRoleAccess,
  Experiment,
  Person,
  PersonDistinctId,
  Event,
  GroupTypeMapping,
  Group,
  Cohort,
  ScheduledChange,
  Webhook,
  WebhookDelivery,
];
