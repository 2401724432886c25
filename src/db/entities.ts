import { Organization } from '../modules/organization/organization.entity';
import { OrganizationMembership } from '../modules/organization/organization-membership.entity';
import { Project } from '../modules/project/project.entity';
import { User } from '../modules/user/user.entity';
import { PersonalApiKey } from '../modules/personal-api-key/personal-api-key.entity';
import { FeatureFlag } from '../modules/feature-flag/feature-flag.entity';
import { Dashboard } from '../modules/dashboard/dashboard.entity';

/** Every entity, listed explicitly: no folder discovery, so ts (tests) and js (dist) agree. */
export const entities = [Organization, OrganizationMembership, Project, User, PersonalApiKey, FeatureFlag, Dashboard];
