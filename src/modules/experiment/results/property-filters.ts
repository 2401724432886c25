import { eventLoopSlices } from '../../../event-loop-slices';
import { propertyMatcher } from '../../../evaluation/property-match';
import type { MetricEntry, PropertyFilter } from './metric';

/** Positional parameters of one statement: `add` answers the placeholder (`$3`). */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

export interface Sql {
  <T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
}

/** Where a filter's property bag comes from: the event's properties, or its person's current ones. */
export type Bag = 'event' | 'person';

/** A filter decided over every value its key takes: `values` (jsonb texts) are the ones that match, or (`negated`) the ones that do not. */
interface Decision {
  absent: boolean;
  values: string[];
  negated: boolean;
}

/**
 * Metric property filters, decided by the flag evaluator itself (docs/experiment-results.md,
 * "Property filters"): every distinct value the filter's key takes in the candidate rows is read
 * once, `propertyMatcher` decides it (regexes on RE2, dates, semver, `exact` with a
 * list, …), and the statements then test membership in the values that matched. The candidates are
 * read in the computation's snapshot (one repeatable-read transaction), so the list is complete.
 */
export class DecidedFilters {
  private readonly decisions = new Map<PropertyFilter, Decision>();

  set(filter: PropertyFilter, decision: Decision): void {
    this.decisions.set(filter, decision);
  }

  /** The filter as an SQL predicate over `bag` (the jsonb expression holding the properties). */
  predicate(filter: PropertyFilter, bag: string, params: Params): string {
    // `bag` is null for an actor without a person, and its value null for an absent key: both "absent".
    const value = `(${bag} -> ${params.add(filter.key, '::text')})`;
    if (filter.operator === 'is_set') return `(${value} is not null)`;
    if (filter.operator === 'is_not_set') return `(${value} is null)`;
    const decision = this.decisions.get(filter);
    if (!decision) throw new Error('property filter not decided');
    const present =
      decision.values.length === 0
        ? String(decision.negated)
        : `${decision.negated ? 'not ' : ''}(${value} = any(${params.add(decision.values, '::text[]::jsonb[]')}))`;
    return `(case when ${value} is null then ${decision.absent} else ${present} end)`;
  }
}

const needsValues = (filter: PropertyFilter) => filter.operator !== 'is_set' && filter.operator !== 'is_not_set';

/**
 * Reads the candidate values of every filter of `entries` and decides each filter with
 * `propertyMatcher` at `now`: one statement per bag with filters to decide. `candidates(bag, keys,
 * params)` is that statement: rows `(key, value)`, each distinct value (jsonb text) a key in `keys`
 * (a text[] placeholder) takes where the filters can apply.
 */
export async function decideFilters(
  sql: Sql,
  entries: MetricEntry[],
  candidates: (bag: Bag, keys: string, params: Params) => string,
  now: Date,
): Promise<DecidedFilters> {
  const decided = new DecidedFilters();
  const slices = eventLoopSlices();
  for (const bag of ['event', 'person'] as const) {
    const filters = entries.flatMap((entry) => entry.properties.filter((filter) => filter.type === bag && needsValues(filter)));
    if (filters.length === 0) continue;
    const keys = [...new Set(filters.map((filter) => filter.key))];
    const params = new Params();
    const rows = await sql<{ key: string; value: string }>(candidates(bag, params.add(keys, '::text[]'), params), params.values);
    const byKey = new Map<string, Array<{ text: string; value: unknown }>>(keys.map((key) => [key, []]));
    for (const row of rows) byKey.get(row.key)!.push({ text: row.value, value: JSON.parse(row.value) });
    for (const filter of filters) {
      const match = propertyMatcher({ ...filter });
      const evaluate = (properties: Record<string, unknown>) => match(properties, now);
      const matched: string[] = [];
      const unmatched: string[] = [];
      for (const { text, value } of byKey.get(filter.key)!) {
        await slices.pause();
        (evaluate({ [filter.key]: value }) ? matched : unmatched).push(text);
      }
      const negated = unmatched.length < matched.length;
      decided.set(filter, { absent: evaluate({}), values: negated ? unmatched : matched, negated });
    }
  }
  return decided;
}

// docs/evaluation.md §4.5: `numeric(x)` is Number(x) when finite. A value that rounds to ±Infinity as a
// double (|x| ≥ 2^1024 − 2^970) is no number; one that rounds to 0 (|x| ≤ 2^−1075) is 0. PostgreSQL's
// float8 refuses both (SQLSTATE 22003), so the exact decimal is compared with these bounds first.
const OVERFLOW = (2n ** 1024n - 2n ** 970n).toString();
const UNDERFLOW = `0.${(5n ** 1075n).toString().padStart(1075, '0')}`;
// Strings this short always fit PostgreSQL's numeric (at most 501 digits and a 3-digit exponent; 255 is the largest count PostgreSQL's regexes take).
const SHORT_NUMBER = `'^[+-]?([0-9]{1,250}[.]?[0-9]{0,250}|[.][0-9]{1,250})([eE][+-]?[0-9]{1,3})?$'`;
const NUMBER = `'^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$'`;

/** `n` (numeric) as the double it rounds to would stand: null when it overflows, 0 when it underflows. */
const fitted = (n: string) => `(case when abs(${n}) >= ${OVERFLOW} then null when abs(${n}) <= ${UNDERFLOW} then 0 else ${n} end)`;

/**
 * Any other numeric string (a long mantissa, a long exponent) through its decimal magnitude: past
 * 1e309 it overflows, below 1e-325 it is 0; otherwise its first 800 significant digits (and a sticky
 * 1 when more follow, so rounding to a double is unchanged) make a numeric PostgreSQL accepts.
 */
const longNumber = (text: string) =>
  `(select case when d = '' then 0 when mag > 308 then null when mag < -325 then 0
                else ${fitted(`(sign || '0.' || left(d, 800) || case when length(d) > 800 then '1' else '' end || 'e' || (mag + 1))::numeric`)} end
      from (select sign, rtrim(a, '0') as d, length(a) - 1 + ex - length(f) as mag
              from (select m[1] as sign, m[3] as f, ltrim(m[2] || m[3], '0') as a,
                           (coalesce(m[4], '') || case when length(m[5]) > 9 then '1000000000' else coalesce(nullif(m[5], ''), '0') end)::bigint as ex
                      from regexp_match(${text}, '^([+-]?)([0-9]*)[.]?([0-9]*)(?:[eE]([+-]?)0*([0-9]*))?$') as m) parts) normal)`;

/**
 * A numeric property value as docs/evaluation.md §4.5 reads it (a JSON number, or a string in plain
 * decimal/exponent form), as an exact numeric that fits a double; null for anything else, including
 * a value too large for a double.
 */
export function numericValue(value: string): string {
  const text = `(${value} #>> '{}')`;
  return (
    `(case jsonb_typeof(${value}) when 'number' then ${fitted(`(${value})::numeric`)} ` +
    `when 'string' then case when ${text} ~ ${SHORT_NUMBER} then ${fitted(`${text}::numeric`)} when ${text} ~ ${NUMBER} then ${longNumber(text)} end end)`
  );
}

/** A numeric (within ±1e300 or so) as float8, a magnitude too small for a double being 0 rather than an error. */
export const toFloat8 = (n: string) => `(case when abs(${n}) <= ${UNDERFLOW} then 0 else ${n}::float8 end)`;
