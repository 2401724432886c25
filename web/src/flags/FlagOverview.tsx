import { conditionInWords } from './rollout-summary';
import { Stored, StoredList } from '../Stored';

type Json = Record<string, unknown>;
type Reach = { usersAffected: number; totalUsers: number } | null;

/** "affects N of M persons" (user_blast_radius: the condition's properties, before rollout). */
function ConditionReach({ reach, subject }: { reach: Reach | undefined; subject: string }) {
  if (!reach) return <span className="muted">reach unknown</span>;
  return (
    <span>
      affects {reach.usersAffected.toLocaleString()} of {reach.totalUsers.toLocaleString()} {subject}
    </span>
  );
}

export function FlagOverview({
  flag,
}: {
  flag: { filters: Json; tags: string[]; createdAt: string; createdBy?: { email: string } | null; conditionReach: Reach[] };
}) {
  const filters = flag.filters;
  const groups = Array.isArray(filters.groups) ? (filters.groups as Json[]) : [];
  const groupTypeIndex = typeof filters.aggregation_group_type_index === 'number' ? filters.aggregation_group_type_index : null;
  const variants = ((filters.multivariate as Json | null)?.variants as Json[] | undefined) ?? [];
  return (
    <div className="overview">
      <h2>Release conditions</h2>
      {groups.length === 0 ? <p>No condition sets: the flag matches nobody.</p> : null}
      <ol>
        {groups.map((condition, index) => (
          <li key={index}>
            <Stored text={conditionInWords(condition, groupTypeIndex === null ? 'persons' : 'groups')} /> —{' '}
            <ConditionReach reach={flag.conditionReach[index]} subject={groupTypeIndex === null ? 'persons' : 'groups'} />
          </li>
        ))}
      </ol>
      {variants.length ? (
        <>
          <h2>Variants</h2>
          <ul>
            {variants.map((variant) => (
              <li key={String(variant.key)}>
                <Stored text={String(variant.key)} />: {String(variant.rollout_percentage)}%
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p className="muted">
        Created {new Date(flag.createdAt).toLocaleString()}
        {flag.createdBy ? ' by ' : ''}
        {flag.createdBy ? <Stored text={flag.createdBy.email} /> : null}. Tags: <StoredList items={flag.tags} empty="none" />.
      </p>
    </div>
  );
}
