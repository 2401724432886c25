import type { EntityManager } from '@mikro-orm/postgresql';
import type { EvaluationSubject } from '../../evaluation/evaluate-flag';
import { storableText } from '../../db/sql';
import { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { GroupTypeMapping } from '../group/group-type-mapping.entity';


/** The project's group types, index → name (evaluation.md §6). */
export async function loadGroupTypes(em: EntityManager, projectId: number): Promise<Map<number, string>> {
  const rows = await em.find(GroupTypeMapping, { project: projectId }, { orderBy: { groupTypeIndex: 'asc' } });
  return new Map(rows.map((row) => [row.groupTypeIndex, row.groupType]));
}

/** What every evaluation and the SDK payload read: the non-deleted flags by id, and the group types. Two statements. */
export async function loadFlagsAndGroupTypes(em: EntityManager, projectId: number) {
  const flags = await em.find(FeatureFlag, { project: projectId, deleted: false }, { orderBy: { id: 'asc' } });
  return { flags, groupTypes: await loadGroupTypes(em, projectId) };
}

/**
 * The stored person behind `distinctId` and the requested groups, as committed now (evaluation.md
 * §4.1): one statement for the person, one for the groups. Names that are not group types are ignored.
 */
export async function loadSubject(
  em: EntityManager,
  projectId: number,
  distinctId: string,
  requested: Record<string, string>,
  groupTypes: ReadonlyMap<number, string>,
): Promise<EvaluationSubject> {
  let personProperties: Record<string, unknown> = {};
  if (storableText(distinctId)) {
    const rows: Array<{ properties: Record<string, unknown> }> = await em.execute(
      `select p.properties from person_distinct_id d join person p on p.id = d.person_id
        where d.project_id = ? and d.distinct_id = ?`,
      [projectId, distinctId],
    );
    if (rows.length) personProperties = rows[0].properties;
  }

  const passed = [...groupTypes]
    .filter(([, name]) => Object.prototype.hasOwnProperty.call(requested, name))
    .map(([index, name]) => ({ index, name, key: requested[name] }));
  const groups: EvaluationSubject['groups'] = {};
  for (const { name, key } of passed) groups[name] = { key, properties: {} };
  const wanted = passed.filter(({ key }) => storableText(key));
  if (wanted.length) {
    const rows: Array<{ group_type_index: number; group_key: string; group_properties: Record<string, unknown> }> = await em.execute(
      `select group_type_index, group_key, group_properties from "group"
        where project_id = ? and (group_type_index, group_key) in (${wanted.map(() => '(?, ?)').join(', ')})`,
      [projectId, ...wanted.flatMap(({ index, key }) => [index, key])],
    );
    for (const row of rows) {
      const name = groupTypes.get(Number(row.group_type_index))!;
      if (groups[name]?.key === row.group_key) groups[name].properties = row.group_properties;
    }
  }

  // SPEC-GAP: cohorts are not built yet (evaluation.md §5); no cohort can exist, and one that does not exist has no members.
  return { distinctId, personProperties, groups, inCohort: () => false };
}
