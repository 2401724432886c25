import type { EntityManager } from '@mikro-orm/postgresql';
import type { FeatureFlag } from './feature-flag.entity';
import { flagFromRow } from './feature-flag.rows';

/** The feature_flag table's queries for evaluation. */
export const FeatureFlagStore = {
  /** A project's non-deleted flags by id, as plain objects (no unit of work). */
  async live(em: EntityManager, projectId: number): Promise<FeatureFlag[]> {
    const rows: Array<Record<string, unknown>> = await em
      .getConnection()
      .execute('select * from feature_flag where project_id = ? and not deleted order by id', [projectId]);
    return rows.map(flagFromRow);
  },
};
