import { isPropertyOperator } from '../../../evaluation/operators';
import { NEGATED, numeric, str } from '../../../evaluation/property-match';
import type { PropertyFilter } from './metric';
import { resultErrors } from './results.errors';

/** Positional parameters of one statement: `add` answers the placeholder (`$3`). */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const isBooleanLike = (v: unknown) => typeof v === 'boolean' || (typeof v === 'string' && /^(true|false)$/i.test(v));
const truthy = (v: unknown): boolean =>
  typeof v === 'boolean' ? v : typeof v === 'string' ? v.toLowerCase() === 'true' : Array.isArray(v) ? v.every(truthy) : false;

/**
 * One property filter as a SQL predicate with the semantics of the flag evaluator (docs/evaluation.md):
 * an absent key is a definite answer, negated operators hold when it is absent, text comparisons are
 * case-insensitive as there. `bag` is the jsonb expression holding the properties.
 */
export function propertyPredicate(filter: PropertyFilter, bag: string, params: Params): string {
  const { operator } = filter;
  if (!isPropertyOperator(operator)) return 'false';
  // Every placeholder added must appear in the statement (PostgreSQL types each one), so the key is added only once it is used.
  if (operator !== 'is_set' && operator !== 'is_not_set' && (filter.value === undefined || filter.value === null)) return 'false';
  if ((operator === 'regex' || operator === 'not_regex') && !compiles(str(filter.value))) return 'false';
  const key = params.add(filter.key, '::text');
  const present = `jsonb_exists(${bag}, ${key})`;
  if (operator === 'is_set') return present;
  if (operator === 'is_not_set') return `not ${present}`;
  const value = `(${bag} -> ${key})`;
  const text = `(case jsonb_typeof(${value}) when 'string' then ${value} #>> '{}' else ${value}::text end)`;
  const positive = (op: string): string => {
    const expected = filter.value;
    switch (op) {
      case 'exact': {
        if (isBooleanLike(expected) || (Array.isArray(expected) && expected.length > 0 && expected.every(isBooleanLike))) {
          const actual = `(case jsonb_typeof(${value}) when 'boolean' then ${value}::text = 'true' when 'string' then lower(${value} #>> '{}') = 'true' else false end)`;
          return `${actual} = ${params.add(truthy(expected), '::boolean')}`;
        }
        const list = (Array.isArray(expected) ? expected : [expected]).map((item) => str(item).toLowerCase());
        return `lower(${text}) = any(${params.add(list, '::text[]')})`;
      }
      case 'icontains':
        return `strpos(translate(${text}, '${UPPER}', '${LOWER}'), ${params.add(asciiLower(str(expected)), '::text')}) > 0`;
      case 'starts_with':
        return `starts_with(translate(${text}, '${UPPER}', '${LOWER}'), ${params.add(asciiLower(str(expected)), '::text')})`;
      case 'ends_with': {
        const needle = asciiLower(str(expected));
        return `right(translate(${text}, '${UPPER}', '${LOWER}'), ${params.add(needle.length, '::int')}) = ${params.add(needle, '::text')}`;
      }
      case 'regex':
        return `${text} ~ ${params.add(str(expected), '::text')}`;
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte': {
        const bound = numeric(expected);
        if (bound === null) return 'false';
        const symbol = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[op];
        return `${numericValue(value)} ${symbol} ${params.add(String(bound), '::numeric')}`;
      }
      default:
        throw resultErrors.propertyOperator(operator);
    }
  };
  const negatedOf = NEGATED[operator];
  if (negatedOf) return `(not ${present} or not coalesce(${positive(negatedOf)}, false))`;
  return `(${present} and coalesce(${positive(operator)}, false))`;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** A numeric property value (a JSON number, or a string in plain decimal/exponent form), else null. */
export function numericValue(value: string): string {
  return (
    `(case when jsonb_typeof(${value}) = 'number' then (${value}::text)::numeric ` +
    `when jsonb_typeof(${value}) = 'string' and (${value} #>> '{}') ~ '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,4})?$' ` +
    `then (${value} #>> '{}')::numeric end)`
  );
}
