import { timestampOf } from '../../db/rows';
import type { User } from './user.entity';

/** An `app_user` row (its columns, possibly under a prefix) as the plain object the API reads. */
export function userFromRow(row: Record<string, unknown>, prefix = ''): User {
  const currentProjectId = row[`${prefix}current_project_id`];
  return {
    id: Number(row[`${prefix}id`]),
    uuid: row[`${prefix}uuid`] as string,
    distinctId: row[`${prefix}distinct_id`] as string,
    firstName: row[`${prefix}first_name`] as string,
    email: row[`${prefix}email`] as string,
    isEmailVerified: row[`${prefix}is_email_verified`] as boolean,
    isActive: row[`${prefix}is_active`] as boolean,
    currentProjectId: currentProjectId === null || currentProjectId === undefined ? null : Number(currentProjectId),
    createdAt: timestampOf(row[`${prefix}created_at`]),
  };
}
