import { useQuery } from '@apollo/client/react';
import { useConsole } from '../Layout';
import { CHOICES_LIMIT, CohortChoices } from '../cohorts/queries';
import { OPERATORS, cohortOperator, type ConditionSet, type PropertyRow } from './filters-model';

/** The release conditions: condition sets of property or cohort filters, each with its rollout. */
export function ConditionsEditor({
  conditions,
  onChange,
  problem,
}: {
  conditions: ConditionSet[];
  onChange: (conditions: ConditionSet[]) => void;
  problem?: string;
}) {
  const setCondition = (index: number, changes: Partial<ConditionSet>) =>
    onChange(conditions.map((c, i) => (i === index ? { ...c, ...changes } : c)));
  const setProperty = (ci: number, pi: number, changes: Partial<PropertyRow>) =>
    setCondition(ci, { properties: conditions[ci].properties.map((p, i) => (i === pi ? { ...p, ...changes } : p)) });
  // A cohort is picked by name from the project's cohorts (a key without cohort:read types its id).
  const { projectId, canRead } = useConsole();
  const pickCohorts = canRead('cohort');
  const anyCohort = conditions.some((condition) => condition.properties.some((p) => p.type === 'cohort'));
  const choices = useQuery(CohortChoices, { variables: { projectId, limit: CHOICES_LIMIT }, skip: !pickCohorts || !anyCohort });
  const cohorts = choices.data?.cohorts.results ?? [];
  return (
    <fieldset aria-describedby="filters-error">
      <legend>Release conditions</legend>
      {problem ? (
        <p id="filters-error" className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {conditions.map((condition, ci) => (
        <fieldset key={ci} className="condition">
          <legend>Condition set {ci + 1}</legend>
          {condition.properties.map((property, pi) => (
            <div key={pi} className="property" role="group" aria-label={`Condition set ${ci + 1}, filter ${pi + 1}`}>
              <label>
                Type{' '}
                <select
                  value={property.type}
                  onChange={(event) => {
                    const type = event.target.value as PropertyRow['type'];
                    // A property's value is no cohort id, nor the other way round.
                    const crossing = (type === 'cohort') !== (property.type === 'cohort');
                    setProperty(ci, pi, crossing ? { type, value: '', operator: type === 'cohort' ? 'in' : 'exact' } : { type });
                  }}
                >
                  <option value="person">Person property</option>
                  <option value="group">Group property</option>
                  <option value="cohort">Cohort</option>
                </select>
              </label>
              {property.type !== 'cohort' ? (
                <>
                  <label>
                    Property <input value={property.key} onChange={(event) => setProperty(ci, pi, { key: event.target.value })} />
                  </label>
                  <label>
                    Operator{' '}
                    <select value={property.operator} onChange={(event) => setProperty(ci, pi, { operator: event.target.value })}>
                      {OPERATORS.map(([operator, words]) => (
                        <option key={operator} value={operator}>
                          {words}
                        </option>
                      ))}
                    </select>
                  </label>
                </>
              ) : (
                <label>
                  Membership{' '}
                  <select
                    value={cohortOperator(property.operator)}
                    onChange={(event) => setProperty(ci, pi, { operator: event.target.value })}
                  >
                    <option value="in">in the cohort</option>
                    <option value="not_in">not in the cohort</option>
                  </select>
                </label>
              )}
              {property.type === 'cohort' && pickCohorts ? (
                <label>
                  Cohort{' '}
                  <select value={property.value} onChange={(event) => setProperty(ci, pi, { value: event.target.value })}>
                    <option value="">Choose a cohort…</option>
                    {cohorts.map((cohort) => (
                      <option key={cohort.id} value={String(cohort.id)}>
                        {cohort.name} ({cohort.isStatic ? 'static' : 'dynamic'})
                      </option>
                    ))}
                    {property.value !== '' && !cohorts.some((cohort) => String(cohort.id) === property.value) ? (
                      <option value={property.value}>#{property.value} (deleted or not listed)</option>
                    ) : null}
                  </select>
                </label>
              ) : property.operator !== 'is_set' && property.operator !== 'is_not_set' ? (
                <label>
                  {property.type === 'cohort' ? 'Cohort id' : 'Value'}{' '}
                  <input value={property.value} onChange={(event) => setProperty(ci, pi, { value: event.target.value })} />
                </label>
              ) : null}
              <button type="button" onClick={() => setCondition(ci, { properties: condition.properties.filter((_, i) => i !== pi) })}>
                Remove filter {pi + 1}
              </button>
            </div>
          ))}
          <button
            type="button"
            onClick={() =>
              setCondition(ci, { properties: [...condition.properties, { type: 'person', key: '', operator: 'exact', value: '' }] })
            }
          >
            Add filter
          </button>
          <label>
            Rollout percentage{' '}
            <input
              type="number"
              min={0}
              max={100}
              step="any"
              value={condition.rollout}
              onChange={(event) => setCondition(ci, { rollout: event.target.value })}
            />
          </label>
          {conditions.length > 1 ? (
            <button type="button" onClick={() => onChange(conditions.filter((_, i) => i !== ci))}>
              Remove condition set {ci + 1}
            </button>
          ) : null}
        </fieldset>
      ))}
      <button type="button" onClick={() => onChange([...conditions, { properties: [], rollout: '100' }])}>
        Add condition set
      </button>
    </fieldset>
  );
}
