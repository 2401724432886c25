import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from './project.entity';

/** An organization's projects, ascending id: one query for all the organizations `me` lists. */
export function createProjectLoaders(em: () => EntityManager) {
  return {
    organizationProjects: new DataLoader<string, Project[]>(async (organizationIds) => {
      const projects = await em().find(Project, { organization: { $in: [...organizationIds] } }, { orderBy: { id: 'asc' } });
      return organizationIds.map((id) => projects.filter((project) => project.organization.id === id));
    }),
  };
}
