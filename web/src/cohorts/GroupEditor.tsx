import { useId } from 'react';
import {
  COHORT_OPERATORS,
  MAX_EDITOR_DEPTH,
  cohortLeaf,
  emptyGroup,
  personLeaf,
  type CohortLeaf,
  type Group,
  type Leaf,
  type PersonLeaf,
} from './cohort-model';

export interface CohortChoice {
  id: number;
  name: string;
  isStatic: boolean;
}

/**
 * A property group (docs/cohorts.md §2): conditions on person properties or references to other
 * cohorts, combined with all (AND) or any (OR), nesting up to MAX_EDITOR_DEPTH levels. Groups are
 * numbered by position ("Group 1.2" is the second item of group 1), and so are conditions.
 */
export function GroupEditor({
  group,
  onChange,
  path = '1',
  depth = 1,
  cohorts,
  onRemove,
}: {
  group: Group;
  onChange: (group: Group) => void;
  path?: string;
  depth?: number;
  cohorts: CohortChoice[];
  onRemove?: () => void;
}) {
  const setValue = (index: number, value: Group | Leaf) =>
    onChange({ ...group, values: group.values.map((v, i) => (i === index ? value : v)) });
  const remove = (index: number) => onChange({ ...group, values: group.values.filter((_, i) => i !== index) });
  const add = (value: Group | Leaf) => onChange({ ...group, values: [...group.values, value] });
  const other = group.type === 'AND' ? 'OR' : 'AND';
  const matchId = useId();
  return (
    <fieldset className={`cohort-group depth-${Math.min(depth, 4)}`}>
      <legend>Group {path}</legend>
      <div className="cohort-group-head">
        <label htmlFor={matchId}>Match</label>
        <select id={matchId} value={group.type} onChange={(event) => onChange({ ...group, type: event.target.value as Group['type'] })}>
          <option value="AND">all of these (AND)</option>
          <option value="OR">any of these (OR)</option>
        </select>
        {onRemove ? (
          <button type="button" className="quiet" onClick={onRemove}>
            Remove group {path}
          </button>
        ) : null}
      </div>
      {group.values.length === 0 ? <p className="help">No conditions yet: an empty group matches everyone.</p> : null}
      {group.values.map((value, index) => {
        const here = `${path}.${index + 1}`;
        return value.kind === 'group' ? (
          <GroupEditor
            key={index}
            group={value}
            onChange={(next) => setValue(index, next)}
            path={here}
            depth={depth + 1}
            cohorts={cohorts}
            onRemove={() => remove(index)}
          />
        ) : (
          <LeafEditor
            key={index}
            leaf={value}
            path={here}
            cohorts={cohorts}
            onChange={(next) => setValue(index, next)}
            onRemove={() => remove(index)}
          />
        );
      })}
      <div className="cohort-group-actions">
        <button type="button" onClick={() => add(personLeaf())}>
          Add condition
        </button>
        {depth < MAX_EDITOR_DEPTH ? (
          <button type="button" onClick={() => add(emptyGroup(other))}>
            Add group
          </button>
        ) : (
          <span className="help">Groups nest at most {MAX_EDITOR_DEPTH} levels deep here.</span>
        )}
      </div>
    </fieldset>
  );
}

function LeafEditor({
  leaf,
  path,
  cohorts,
  onChange,
  onRemove,
}: {
  leaf: Leaf;
  path: string;
  cohorts: CohortChoice[];
  onChange: (leaf: Leaf) => void;
  onRemove: () => void;
}) {
  const label = `Condition ${path}`;
  const uid = useId();
  const idOf = (part: string) => `${uid}-${part}`;
  if (leaf.kind === 'other') {
    return (
      <div className="cohort-leaf" role="group" aria-label={label}>
        <span>
          An event filter (<code>{String(leaf.raw.type)}</code>): kept as it is; the console does not edit it, and flags cannot use a cohort
          that has one.
        </span>
        <button type="button" className="quiet" onClick={onRemove}>
          Remove condition {path}
        </button>
      </div>
    );
  }
  const person = leaf.kind === 'person' ? leaf : null;
  const reference = leaf.kind === 'cohort' ? leaf : null;
  const setPerson = (changes: Partial<PersonLeaf>) => onChange({ ...(leaf as PersonLeaf), ...changes });
  const setReference = (changes: Partial<CohortLeaf>) => onChange({ ...(leaf as CohortLeaf), ...changes });
  const unlisted = reference && reference.cohortId !== '' && !cohorts.some((c) => String(c.id) === reference.cohortId);
  return (
    <div className="cohort-leaf" role="group" aria-label={label}>
      <span className="control">
        <label htmlFor={idOf('type')}>Type</label>
        <select
          id={idOf('type')}
          value={leaf.kind}
          onChange={(event) =>
            onChange(
              event.target.value === 'cohort' ? { ...cohortLeaf(), negation: leaf.negation } : { ...personLeaf(), negation: leaf.negation },
            )
          }
        >
          <option value="person">Person property</option>
          <option value="cohort">In cohort</option>
        </select>
      </span>
      {person ? (
        <>
          <span className="control">
            <label htmlFor={idOf('key')}>Property</label>
            <input id={idOf('key')} value={person.key} onChange={(event) => setPerson({ key: event.target.value })} />
          </span>
          <span className="control">
            <label htmlFor={idOf('operator')}>Operator</label>
            <select id={idOf('operator')} value={person.operator} onChange={(event) => setPerson({ operator: event.target.value })}>
              {COHORT_OPERATORS.map(([operator, words]) => (
                <option key={operator} value={operator}>
                  {words}
                </option>
              ))}
              {COHORT_OPERATORS.some(([operator]) => operator === person.operator) ? null : (
                <option value={person.operator}>{person.operator}</option>
              )}
            </select>
          </span>
          {person.operator !== 'is_set' && person.operator !== 'is_not_set' ? (
            <span className="control">
              <label htmlFor={idOf('value')}>Value</label>
              <input id={idOf('value')} value={person.value} onChange={(event) => setPerson({ value: event.target.value })} />
            </span>
          ) : null}
        </>
      ) : null}
      {reference ? (
        <span className="control">
          <label htmlFor={idOf('cohort')}>Cohort</label>
          <select id={idOf('cohort')} value={reference.cohortId} onChange={(event) => setReference({ cohortId: event.target.value })}>
            <option value="">Choose a cohort…</option>
            {cohorts.map((cohort) => (
              <option key={cohort.id} value={String(cohort.id)}>
                {cohort.name} ({cohort.isStatic ? 'static' : 'dynamic'})
              </option>
            ))}
            {unlisted ? <option value={reference.cohortId}>#{reference.cohortId} (deleted or not listed)</option> : null}
          </select>
        </span>
      ) : null}
      <span className="cohort-not">
        <input
          id={idOf('not')}
          type="checkbox"
          checked={leaf.negation}
          onChange={(event) => onChange({ ...leaf, negation: event.target.checked })}
        />
        <label htmlFor={idOf('not')}>Not</label>
      </span>
      <button type="button" className="quiet" onClick={onRemove}>
        Remove condition {path}
      </button>
    </div>
  );
}
