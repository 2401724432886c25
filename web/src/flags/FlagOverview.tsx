import { useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { conditionInWords } from './rollout-summary';

const Reach = graphql(`
  query ConsoleConditionReach($projectId: ID!, $input: BlastRadiusInput!) {
    featureFlagBlastRadius(projectId: $projectId, input: $input) {
      usersAffected
      totalUsers
    }
  }
`);

type Json = Record<string, unknown>;

/** "Affects N of M persons" for one condition set (user_blast_radius: properties only, before rollout). */
function ConditionReach({ condition, groupTypeIndex }: { condition: Json; groupTypeIndex: number | null }) {
  const { projectId } = useConsole();
  const { data, error } = useQuery(Reach, {
    variables: { projectId, input: { condition: { properties: condition.properties ?? [] }, groupTypeIndex } },
  });
  const subject = groupTypeIndex === null ? 'persons' : 'groups';
  if (error) return <span className="muted">reach unknown ({error.message})</span>;
  if (!data) return <span className="muted">counting…</span>;
  const { usersAffected, totalUsers } = data.featureFlagBlastRadius;
  return (
    <span>
      affects {usersAffected.toLocaleString()} of {totalUsers.toLocaleString()} {subject}
    </span>
  );
}

export function FlagOverview({
  flag,
}: {
  flag: { filters: Json; tags: string[]; createdAt: string; createdBy?: { email: string } | null };
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
            {conditionInWords(condition, groupTypeIndex === null ? 'persons' : 'groups')} —{' '}
            <ConditionReach condition={condition} groupTypeIndex={groupTypeIndex} />
          </li>
        ))}
      </ol>
      {variants.length ? (
        <>
          <h2>Variants</h2>
          <ul>
            {variants.map((variant) => (
              <li key={String(variant.key)}>
                {String(variant.key)}: {String(variant.rollout_percentage)}%
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p className="muted">
        Created {new Date(flag.createdAt).toLocaleString()}
        {flag.createdBy ? ` by ${flag.createdBy.email}` : ''}. Tags: {flag.tags.length ? flag.tags.join(', ') : 'none'}.
      </p>
    </div>
  );
}
