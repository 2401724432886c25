import DataLoader from 'dataloader';
import type { ProjectAccess } from './auth/access';
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
import { createFeatureFlagLoaders } from './modules/feature-flag/feature-flag.loaders';

/** Per-request DataLoaders: every relation a list can touch is fetched in one batch. */
export function createLoaders(ctx: AppContext) {
  // The request forks its EntityManager only when a loader first queries: a primed read never does.
  const em = () => ctx.em;
  return {
    user: createUserLoader(em),
    ...createProjectLoaders(em),
    ...createRoleLoaders(em),
    ...createExperimentLoaders(em),
    ...createPersonLoaders(em),
    ...createActivityLoaders(em),
    ...createCohortLoaders(ctx),
    ...createDashboardLoaders(ctx),
    ...createFeatureFlagLoaders(em),
    /** `can_edit` decided for a whole page at once; the caller's project access is checked before the load. */
    canEditFlag: new DataLoader<{ flag: FeatureFlag; access: ProjectAccess }, boolean, FeatureFlag>(
      async (keys) => {
        const byProject = new Map<number, { access: ProjectAccess; flags: FeatureFlag[] }>();
        for (const { flag, access } of keys) {
          const group = byProject.get(access.project.id) ?? { access, flags: [] };
          group.flags.push(flag);
          byProject.set(access.project.id, group);
        }
        const answers = new Map<FeatureFlag, boolean>();
        for (const { access, flags } of byProject.values()) {
          (await canEditFlags(em, access, flags)).forEach((answer, i) => answers.set(flags[i], answer));
        }
        return keys.map(({ flag }) => answers.get(flag)!);
      },
      { cacheKeyFn: ({ flag }) => flag },
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
