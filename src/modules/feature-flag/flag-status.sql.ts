/**
 * docs/stale-flags.md's rule in SQL, over `feature_flag f`: the list's `active=STALE` filter. It is
 * flag-status.ts's rule word for word (test/rest/flag-status.test.ts holds the two together): a
 * JSON value of the wrong kind counts as it does there, and every cast sits behind a `case` on the
 * value's type, so no stored filters can make the statement fail. Both `?` are the cutoff.
 */

/** The conditions as shownFilters shows them: stored filters without `groups` are one condition with their legacy properties. */
const CONDITIONS = `(case
  when f.filters -> 'groups' is null then jsonb_build_array(jsonb_build_object('properties',
    case when jsonb_typeof(f.filters -> 'properties') = 'array' then f.filters -> 'properties' else '[]'::jsonb end))
  when jsonb_typeof(f.filters -> 'groups') = 'array' then f.filters -> 'groups'
  else '[]'::jsonb end)`;

/** A non-empty variants list (a multivariate flag); filters without `groups` show none. */
const VARIANTS = `(case when f.filters -> 'groups' is not null and jsonb_typeof(f.filters -> 'multivariate' -> 'variants') = 'array'
  then f.filters -> 'multivariate' -> 'variants' else '[]'::jsonb end)`;

const percentAtLeast = (value: string, bound: number) =>
  `(case when jsonb_typeof(${value}) = 'number' then (${value} #>> '{}')::numeric >= ${bound} else false end)`;
const percentAtMost = (value: string, bound: number) =>
  `(case when jsonb_typeof(${value}) = 'number' then (${value} #>> '{}')::numeric <= ${bound} else false end)`;

const FOR_EVERYONE = `jsonb_typeof(g) = 'object'
  and (coalesce(jsonb_typeof(g -> 'properties'), 'null') = 'null' or g -> 'properties' = '[]'::jsonb)
  and (coalesce(jsonb_typeof(g -> 'rollout_percentage'), 'null') = 'null' or ${percentAtLeast(`g -> 'rollout_percentage'`, 100)})`;

const FIXED_ANSWER = `(not f.active
  or not exists (select 1 from jsonb_array_elements(${CONDITIONS}) g
                  where not (jsonb_typeof(g) = 'object' and ${percentAtMost(`g -> 'rollout_percentage'`, 0)}))
  or (exists (select 1 from jsonb_array_elements(${CONDITIONS}) g where ${FOR_EVERYONE})
      and (jsonb_array_length(${VARIANTS}) = 0
           or exists (select 1 from jsonb_array_elements(${CONDITIONS}) g where ${FOR_EVERYONE} and jsonb_typeof(g -> 'variant') = 'string')
           or exists (select 1 from jsonb_array_elements(${VARIANTS}) v
                       where jsonb_typeof(v) = 'object' and jsonb_typeof(v -> 'key') = 'string'
                         and ${percentAtLeast(`v -> 'rollout_percentage'`, 100)}))))`;

/**
 * A flag key's newest `$feature_flag_called` (docs/stale-flags.md): one backward probe of the partial
 * index `event_feature_flag_last_called_index`.
 */
export const lastCallOf = (project: string, key: string) =>
  `select max(e.timestamp) from event e where e.project_id = ${project} and e.event = '$feature_flag_called' and (e.properties ->> '$feature_flag') = ${key}`;

/** Called since the cutoff, as the newest call (an `exists` would let the planner scan all of a key's calls in the older index). */
const CALLED_SINCE = `coalesce((${lastCallOf('f.project_id', 'f.key')}) > ?, false)`;

export const STALE_FLAG_CONDITION = `(not f.deleted and f.updated_at <= ? and (${FIXED_ANSWER} or not ${CALLED_SINCE}))`;

export const staleFlagCondition = (cutoff: Date): [string, Date[]] => [STALE_FLAG_CONDITION, [cutoff, cutoff]];
