/**
 * The cohort form's model of a dynamic cohort's property group (docs/cohorts.md §2), its conversion
 * both ways, and the definition in words. Values are edited as text and sent as the flag form sends
 * them (a list for `exact`/`is_not` with commas, the operator itself for `is_set`/`is_not_set`).
 */

type Json = Record<string, unknown>;

/** Every person-filter operator the API supports (docs/evaluation.md §4), with its words. */
export const COHORT_OPERATORS = [
  ['exact', 'equals', '='],
  ['is_not', 'does not equal', '≠'],
  ['icontains', 'contains', 'contains'],
  ['not_icontains', 'does not contain', 'does not contain'],
  ['starts_with', 'starts with', 'starts with'],
  ['not_starts_with', 'does not start with', 'does not start with'],
  ['ends_with', 'ends with', 'ends with'],
  ['not_ends_with', 'does not end with', 'does not end with'],
  ['regex', 'matches regex', 'matches'],
  ['not_regex', 'does not match regex', 'does not match'],
  ['gt', 'greater than', '>'],
  ['gte', 'at least', '≥'],
  ['lt', 'less than', '<'],
  ['lte', 'at most', '≤'],
  ['is_set', 'is set', 'is set'],
  ['is_not_set', 'is not set', 'is not set'],
  ['is_date_before', 'before date', 'before'],
  ['is_date_after', 'after date', 'after'],
  ['is_date_exact', 'on date', 'on'],
  ['semver_eq', 'version equals', 'version ='],
  ['semver_neq', 'version differs', 'version ≠'],
  ['semver_gt', 'version above', 'version >'],
  ['semver_gte', 'version at least', 'version ≥'],
  ['semver_lt', 'version below', 'version <'],
  ['semver_lte', 'version at most', 'version ≤'],
  ['semver_tilde', 'version ~ (patch updates)', 'version ~'],
  ['semver_caret', 'version ^ (compatible)', 'version ^'],
  ['semver_wildcard', 'version matches wildcard', 'version matches'],
] as const;

const SYMBOL: Record<string, string> = Object.fromEntries(COHORT_OPERATORS.map(([op, , symbol]) => [op, symbol]));

/** How deep the editor nests groups: the outer group is level 1 (the API allows more; hand-written deeper ones still show). */
export const MAX_EDITOR_DEPTH = 3;

/** How many distinct ids one paste may hold (the API's limit for `addCohortMembers`). */
export const MAX_DISTINCT_IDS = 10_000;

export interface PersonLeaf {
  kind: 'person';
  key: string;
  operator: string;
  value: string;
  negation: boolean;
}

export interface CohortLeaf {
  kind: 'cohort';
  /** The referenced cohort's id as text ('' until one is chosen). */
  cohortId: string;
  negation: boolean;
}

/** A filter the editor does not edit (an event filter): kept as it was. */
export interface OtherLeaf {
  kind: 'other';
  raw: Json;
}

export type Leaf = PersonLeaf | CohortLeaf | OtherLeaf;

export interface Group {
  kind: 'group';
  type: 'AND' | 'OR';
  values: Array<Group | Leaf>;
}

export const emptyGroup = (type: 'AND' | 'OR' = 'AND'): Group => ({ kind: 'group', type, values: [] });
export const personLeaf = (): PersonLeaf => ({ kind: 'person', key: '', operator: 'exact', value: '', negation: false });
export const cohortLeaf = (): CohortLeaf => ({ kind: 'cohort', cohortId: '', negation: false });

const text = (value: unknown) => (value === undefined || value === null ? '' : Array.isArray(value) ? value.join(', ') : String(value));
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function leafOf(raw: Json): Leaf {
  if (raw.type === 'person' && typeof raw.key === 'string') {
    const operator = typeof raw.operator === 'string' ? raw.operator : 'exact';
    return {
      kind: 'person',
      key: raw.key,
      operator,
      value: operator === 'is_set' || operator === 'is_not_set' ? '' : text(raw.value),
      negation: raw.negation === true,
    };
  }
  if (raw.type === 'cohort') return { kind: 'cohort', cohortId: text(raw.value), negation: raw.negation === true };
  return { kind: 'other', raw };
}

/**
 * The editor's group for a cohort's `filters` (null or odd shapes: an empty AND group). A nested
 * group with the parent's AND/OR, or with a single item, is spliced into its parent: it means the
 * same, and it is how propertiesOf wraps filters next to groups, so an edit shows what was built.
 */
export function groupOf(filters: unknown): Group {
  const properties = isObject(filters) ? filters.properties : null;
  const walk = (raw: unknown): Group => {
    if (!isObject(raw)) return emptyGroup();
    const type = raw.type === 'OR' ? 'OR' : 'AND';
    const values = (Array.isArray(raw.values) ? raw.values : []).filter(isObject);
    const items = values.flatMap((value): Array<Group | Leaf> => {
      if (!Array.isArray(value.values)) return [leafOf(value)];
      const nested = walk(value);
      // An empty group matches everyone: kept, since splicing it into an OR would change the meaning.
      return nested.values.length > 0 && (nested.type === type || nested.values.length === 1) ? nested.values : [nested];
    });
    return { kind: 'group', type, values: items };
  };
  return walk(properties);
}

const NUMERIC = new Set(['gt', 'gte', 'lt', 'lte']);

function personValue(leaf: PersonLeaf): unknown {
  if (leaf.operator === 'is_set' || leaf.operator === 'is_not_set') return leaf.operator;
  if (NUMERIC.has(leaf.operator)) return leaf.value.trim();
  if ((leaf.operator === 'exact' || leaf.operator === 'is_not') && leaf.value.includes(',')) {
    return leaf.value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  return leaf.value;
}

function leafJson(leaf: Leaf): Json {
  if (leaf.kind === 'other') return leaf.raw;
  const negation = leaf.negation ? { negation: true } : {};
  if (leaf.kind === 'cohort') return { type: 'cohort', key: 'id', value: Number(leaf.cohortId), ...negation };
  return { type: 'person', key: leaf.key.trim(), operator: leaf.operator, value: personValue(leaf), ...negation };
}

/**
 * The API's property group. The API wants a group's values all groups or all filters; the editor
 * lets them mix, so filters sitting next to groups are wrapped in a group of the same AND/OR, which
 * means the same (`A or B or (C and D)` is `(A or B) or (C and D)`).
 */
export function propertiesOf(group: Group): Json {
  const groups = group.values.filter((v): v is Group => v.kind === 'group');
  const leaves = group.values.filter((v): v is Leaf => v.kind !== 'group');
  if (groups.length === 0) return { type: group.type, values: leaves.map(leafJson) };
  const nested = groups.map(propertiesOf);
  if (leaves.length === 0) return { type: group.type, values: nested };
  return { type: group.type, values: [{ type: group.type, values: leaves.map(leafJson) }, ...nested] };
}

/** Problems the form can see before sending (the server checks everything again). */
export function groupProblems(group: Group): string[] {
  const problems: string[] = [];
  const walk = (g: Group, path: string) => {
    g.values.forEach((value, i) => {
      const here = `${path}.${i + 1}`;
      if (value.kind === 'group') walk(value, here);
      else if (value.kind === 'person' && !value.key.trim()) problems.push(`Condition ${here.slice(1)} needs a property name.`);
      else if (value.kind === 'cohort' && !value.cohortId) problems.push(`Condition ${here.slice(1)} needs a cohort.`);
    });
  };
  walk(group, '');
  return problems;
}

/** Distinct ids pasted one per line or separated by commas: trimmed, blanks and repeats dropped. */
export function distinctIdsOf(pasted: string): string[] {
  return [
    ...new Set(
      pasted
        .split(/[\n,]/)
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
}

/** A paste's problem, if any, before it is sent. */
export function pasteProblem(ids: string[], required: boolean): string | undefined {
  if (ids.length === 0) return required ? 'Paste at least one distinct id.' : undefined;
  if (ids.length > MAX_DISTINCT_IDS)
    return `At most ${MAX_DISTINCT_IDS.toLocaleString('en')} distinct ids at once (this list has ${ids.length.toLocaleString('en')}).`;
  return undefined;
}

/** A cohort's name by id, for references; unknown ids (deleted, or beyond the list) by number. */
export type CohortNames = ReadonlyMap<number, string>;

const shown = (value: unknown) => (Array.isArray(value) ? value.map(String).join(' or ') : text(value));

/** One filter in words: "plan = pro", "not in cohort “Beta testers”", "country is not set". */
export function leafInWords(raw: Json, names: CohortNames): string {
  const not = raw.negation === true;
  if (raw.type === 'cohort') {
    const id = Number(raw.value);
    const name = names.get(id);
    return `${not ? 'not in' : 'in'} cohort ${name ? `“${name}”` : `#${shown(raw.value)}`}`;
  }
  if (raw.type === 'behavioral') return `${not ? 'not ' : ''}an event filter (not evaluated)`;
  const operator = typeof raw.operator === 'string' ? raw.operator : 'exact';
  const words = SYMBOL[operator] ?? operator.replace(/_/g, ' ');
  const condition =
    operator === 'is_set' || operator === 'is_not_set' ? `${text(raw.key)} ${words}` : `${text(raw.key)} ${words} ${shown(raw.value)}`;
  return not ? `not (${condition})` : condition;
}

export interface WordsNode {
  /** "all of" / "any of", or a filter in words. */
  text: string;
  children?: WordsNode[];
}

/** The definition as a tree of words, for a nested list. */
export function definitionInWords(filters: unknown, names: CohortNames): WordsNode {
  const properties = isObject(filters) ? filters.properties : null;
  const walk = (raw: unknown): WordsNode => {
    if (!isObject(raw)) return { text: 'everyone (no conditions)' };
    const values = (Array.isArray(raw.values) ? raw.values : []).filter(isObject);
    if (values.length === 0) return { text: 'everyone (no conditions)' };
    const nodeOf = (value: Json) => (Array.isArray(value.values) ? walk(value) : { text: leafInWords(value, names) });
    if (values.length === 1) return nodeOf(values[0]);
    return { text: raw.type === 'OR' ? 'any of' : 'all of', children: values.map(nodeOf) };
  };
  return walk(properties);
}

/** How deep a group nests (a group of filters only: 1). */
export function depthOf(group: Group): number {
  return 1 + Math.max(0, ...group.values.map((v) => (v.kind === 'group' ? depthOf(v) : 0)));
}
