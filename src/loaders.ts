import DataLoader from 'dataloader';
import { accessProject } from './auth/access';
import type { AppContext } from './context';
import type { FeatureFlag } from './modules/feature-flag/feature-flag.entity';
import { canEditFlags } from './modules/feature-flag/feature-flag.permissions';
import { createExperimentLoaders } from './modules/experiment/experiment.loaders';
import { createPersonLoaders } from './modules/person/person.loaders';
import { createActivityLoaders } from './modules/activity/activity.loaders';
import { createCohortLoaders } from './modules/cohort/cohort.loaders';
import { createProjectLoaders } from './modules/project/project.loaders';
import { createRoleLoaders } from './modules/role/role.loaders';
import { createUserLoader } from './modules/user/user.loaders';
import { createDashboardLoaders } from './modules/dashboard/dashboard.loaders';

/** Per-request DataLoaders: every relation a list can touch is fetched in one batch. */
export function createLoaders(ctx: AppContext) {
  const em = ctx.em;
  return {
    user: createUserLoader(em),
    ...createProjectLoaders(em),
    ...createRoleLoaders(em),
    ...createExperimentLoaders(em),
    ...createPersonLoaders(em),
    ...createActivityLoaders(em),
    ...createCohortLoaders(em),
    ...createDashboardLoaders(ctx),
    /** `can_edit` decided for a whole page at once. */
    canEditFlag: new DataLoader<FeatureFlag, boolean>(async (flags) => {
      const byProject = new Map<number, FeatureFlag[]>();
      for (const flag of flags) byProject.set(flag.project.id, [...(byProject.get(flag.project.id) ?? []), flag]);
      const answers = new Map<FeatureFlag, boolean>();
      for (const [projectId, group] of byProject) {
        const access = await accessProject(ctx, projectId, 'feature_flag:read');
        (await canEditFlags(em, access, group)).forEach((answer, i) => answers.set(group[i], answer));
      }
      return flags.map((flag) => answers.get(flag)!);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
