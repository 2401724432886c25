import type { EntityManager } from '@mikro-orm/postgresql';
import { generateProjectApiToken, generateProjectSecretToken } from '../../auth/personal-api-key';
import type { Organization } from '../organization/organization.entity';
import { Project } from './project.entity';

export const ProjectService = {
  create(em: EntityManager, organization: Organization, name: string): Project {
    return em.create(Project, {
      organization,
      name,
      apiToken: generateProjectApiToken(),
      secretApiToken: generateProjectSecretToken(),
    });
  },
};
