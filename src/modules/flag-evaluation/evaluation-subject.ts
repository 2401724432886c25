import type { EntityManager } from '@mikro-orm/postgresql';
import type { EvaluationSubject } from '../../evaluation/evaluate-flag';
import { storableText } from '../../db/sql';
import type { FeatureFlag } from '../feature-flag/feature-flag.entity';
import { flagFromRow } from '../feature-flag/feature-flag.rows';

/** The project's group types, index → name (evaluation.md §6). */
export async function loadGroupTypes(em: EntityManager, projectId: number): Promise<Map<number, string>> {
  const rows: Array<{ group_type_index: number; group_type: string }> = await em
    .getConnection()
    .execute('select group_type_index, group_type from group_type_mapping where project_id = ? order by group_type_index', [projectId]);
  return new Map(rows.map((row) => [Number(row.group_type_index), row.group_type]));
}

/** What every evaluation and the SDK payload read: the non-deleted flags by id, and the group types. Two statements, no unit of work. */
export async function loadFlagsAndGroupTypes(
  em: EntityManager,
  projectId: number,
): Promise<{ flags: FeatureFlag[]; groupTypes: Map<number, string> }> {
  const [rows, groupTypes] = await Promise.all([
    em.getConnection().execute('select * from feature_flag where project_id = ? and not deleted order by id', [projectId]) as Promise<
      Array<Record<string, unknown>>
    >,
    loadGroupTypes(em, projectId),
  ]);
  return { flags: rows.map(flagFromRow), groupTypes };
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
