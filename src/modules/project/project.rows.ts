import { timestampOf } from '../../db/rows';
import type { Organization } from '../organization/organization.entity';
import type { Project } from './project.entity';

/**
 * A `project` row as a plain object of the entity's shape, for the access check every admin request
 * makes: mapping it into the request's EntityManager cost that check more than its statement did.
 * Never handed to an EntityManager; a write that stores the project takes a reference by id
 * (`projectReference` in src/auth/access.ts).
 */
export function projectFromRow(row: Record<string, unknown>): Project {
  return {
    id: Number(row.id),
    organization: { id: String(row.organization_id) } as Organization,
    name: row.name as string,
    apiToken: row.api_token as string,
    secretApiToken: row.secret_api_token as string,
    createdAt: timestampOf(row.created_at),
  } as Project;
}
