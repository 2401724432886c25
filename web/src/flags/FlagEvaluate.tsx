import { useState } from 'react';
import { useLazyQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage } from '../errors';

const Evaluate = graphql(`
  query ConsoleEvaluate($projectId: ID!, $distinctId: String!) {
    featureFlagEvaluations(projectId: $projectId, distinctId: $distinctId) {
      key
      value
      reason
      conditionIndex
    }
  }
`);

/** Every flag's value for one distinct id, with the reason and the matching condition (evaluation_reasons). */
export function FlagEvaluate() {
  const { projectId, distinctId: mine } = useConsole();
  const [distinctId, setDistinctId] = useState(mine);
  const [run, { data, error, loading }] = useLazyQuery(Evaluate);
  return (
    <div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run({ variables: { projectId, distinctId } }).catch(() => undefined);
        }}
      >
        <label>
          Distinct id <input value={distinctId} onChange={(event) => setDistinctId(event.target.value)} required />
        </label>{' '}
        <button type="submit" disabled={loading || distinctId === ''}>
          Evaluate
        </button>
      </form>
      <ErrorMessage error={error} title="Not evaluated." />
      {data ? (
        <table>
          <caption>Flags for {distinctId}</caption>
          <thead>
            <tr>
              <th scope="col">Flag</th>
              <th scope="col">Value</th>
              <th scope="col">Reason</th>
              <th scope="col">Condition</th>
            </tr>
          </thead>
          <tbody>
            {data.featureFlagEvaluations.map((row) => (
              <tr key={row.key}>
                <td>{row.key}</td>
                <td>{JSON.stringify(row.value)}</td>
                <td>{row.reason}</td>
                <td>{row.conditionIndex === null || row.conditionIndex === undefined ? '—' : `Condition set ${row.conditionIndex + 1}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
