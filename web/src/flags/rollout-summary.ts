/** A flag's conditions in one line of words: "50% of persons where country = US", "100% of everyone". */

type Json = Record<string, unknown>;

const OPERATOR_WORDS: Record<string, string> = {
  exact: '=',
  is_not: '≠',
  icontains: 'contains',
  not_icontains: 'does not contain',
  regex: 'matches',
  not_regex: 'does not match',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  is_set: 'is set',
  is_not_set: 'is not set',
  is_date_before: 'before',
  is_date_after: 'after',
  is_date_exact: 'on',
  in: 'in',
  not_in: 'not in',
};

const shown = (value: unknown) => (Array.isArray(value) ? value.join(' or ') : value === undefined || value === null ? '' : String(value));

/** One property filter in words. */
export function filterInWords(filter: Json): string {
  if (filter.type === 'cohort') return `${filter.operator === 'not_in' ? 'not in' : 'in'} cohort ${shown(filter.value)}`;
  const operator = typeof filter.operator === 'string' ? filter.operator : 'exact';
  const words = OPERATOR_WORDS[operator] ?? operator.replace(/_/g, ' ');
  if (operator === 'is_set' || operator === 'is_not_set') return `${String(filter.key)} ${words}`;
  return `${String(filter.key)} ${words} ${shown(filter.value)}`;
}

/** One condition set in words. */
export function conditionInWords(condition: Json, subject = 'persons'): string {
  const rollout = typeof condition.rollout_percentage === 'number' ? condition.rollout_percentage : 100;
  const properties = Array.isArray(condition.properties) ? (condition.properties as Json[]) : [];
  const where = properties.length ? ` where ${properties.map(filterInWords).join(' and ')}` : '';
  return `${rollout}% of ${properties.length ? subject : `all ${subject}`}${where}`;
}

/** The first condition in words, and how many more there are. */
export function rolloutSummary(filters: Json): string {
  const groups = Array.isArray(filters.groups) ? (filters.groups as Json[]) : [];
  const subject = typeof filters.aggregation_group_type_index === 'number' ? 'groups' : 'persons';
  if (groups.length === 0) return 'No conditions: matches nobody';
  const more = groups.length > 1 ? ` (+${groups.length - 1} more)` : '';
  return `${conditionInWords(groups[0], subject)}${more}`;
}
