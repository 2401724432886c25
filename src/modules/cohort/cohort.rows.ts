import { referenceOf, timestampOf } from '../../db/rows';
import type { Project } from '../project/project.entity';
import type { User } from '../user/user.entity';
import type { Cohort } from './cohort.entity';

/** A `cohort` row as the plain object reads render (no unit of work); relations are `{id}` stubs. */
export function cohortFromRow(row: Record<string, unknown>): Cohort {
  return {
    id: Number(row.id),
    project: referenceOf<Project>(row.project_id)!,
    name: row.name as string,
    description: row.description as string,
    filters: (row.filters ?? null) as Record<string, unknown> | null,
    isStatic: row.is_static as boolean,
    deleted: row.deleted as boolean,
    createdBy: referenceOf<User>(row.created_by_id),
    createdAt: timestampOf(row.created_at),
    updatedAt: timestampOf(row.updated_at),
  };
}

/** The type of a cohort field resolver's `@Root()`: a mapped type reflects as `Object`, so plain rows stay plain. */
export type CohortRoot = Readonly<Cohort>;
