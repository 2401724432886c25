import { accessProject } from '../../auth/access';
import type { AppContext } from '../../context';
import { countMatching, groupSource, personSource, type CountSource } from './blast-radius.store';
import type { BlastRadius, BlastRadiusInput } from './blast-radius.types';
import { checkBlastRadiusInput } from './blast-radius.validation';
import { GroupStore } from '../group/group.store';
import { cohortInfoLoader } from '../cohort/cohort.lookups';

/** `POST /feature_flags/user_blast_radius` (docs/evaluation.md §10): persons, or groups of one type, a condition matches. */
export async function blastRadius(ctx: AppContext, projectRef: unknown, input: BlastRadiusInput): Promise<BlastRadius> {
  const { project } = await accessProject(ctx, projectRef, 'feature_flag:read');
  const { properties, groupTypeIndex } = await checkBlastRadiusInput(input, cohortInfoLoader(ctx.em, project.id));

  let source: CountSource;
  if (groupTypeIndex === null) {
    // The cached definitions: each cohort is measured once per change, not once per request.
    const { cohorts, expansion } = properties.some((p) => p.type === 'cohort')
      ? await ctx.definitions.get(project.id)
      : { cohorts: new Map(), expansion: undefined };
    source = personSource(project.id, cohorts, expansion);
  } else {
    if (!(await GroupStore.typeNames(ctx.em, project.id)).has(groupTypeIndex)) return { usersAffected: 0, totalUsers: 0 };
    source = groupSource(project.id, groupTypeIndex);
  }
  const now = new Date(ctx.clock.now());
  const totalUsers = await countMatching(ctx.em, source, [], now);
  const usersAffected = properties.length === 0 ? totalUsers : await countMatching(ctx.em, source, properties, now, ctx.work.signal);
  return { usersAffected, totalUsers };
}

/** Each condition set of `filters` sized like `blastRadius`, one after the other as the request's work; a failing one rejects alone. */
export function conditionReach(ctx: AppContext, projectId: number, filters: Record<string, unknown> | null): Array<Promise<BlastRadius>> {
  const groups = Array.isArray(filters?.groups) ? filters.groups : [];
  const groupTypeIndex = filters?.aggregation_group_type_index ?? null;
  return groups.map((group: unknown) => {
    const properties = group !== null && typeof group === 'object' ? (group as Record<string, unknown>).properties : undefined;
    return ctx.work.run(() => blastRadius(ctx, projectId, { condition: { properties: properties ?? [] }, groupTypeIndex }));
  });
}
