import type { ApolloServerOptions, ApolloServerPlugin } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  BREAK,
  Kind,
  parse,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  visit,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { refuseNulArguments } from './arguments';
import { computingWeight } from './computing-fields';

/**
 * What one GraphQL request may ask for. A document is refused, before anything runs, when it is too
 * big to read safely (size, bracket nesting, tokens) or asks for more than the service will build
 * (depth, aliases, a list inside itself, estimated cost). Every refusal is a client error:
 * `extensions.code` BAD_USER_INPUT with `reason` graphql_parse_failed or graphql_validation_failed.
 * Introspection, anonymous or not, is held to the same limits; the standard introspection query
 * (`getIntrospectionQuery()`, depth 15, cost about 16,000) passes them.
 */
export const GRAPHQL_LIMITS = {
  /** Characters of query text (the HTTP body as a whole may hold up to 1 MiB, variables included). */
  maxQueryLength: 100_000,
  /** `{`, `[` and `(` open at once: checked on the text, so the (recursive) parser never goes deeper. */
  maxNesting: 100,
  /** Lexical tokens (graphql-js stops parsing past them). Validation is quadratic in repeated fields, so this stays small. */
  maxTokens: 1_000,
  /** How often a leaf without arguments may repeat in one selection set (other fields: once). */
  maxLeafRepeats: 3,
  /** Nested fields, fragments flattened. */
  maxDepth: 20,
  /** Aliased fields (`__typename` aliases are free). */
  maxAliases: 30,
  /** Estimated objects in the response (see `estimateCost`). */
  maxCost: 50_000,
  /** The size assumed for a list without a `limit` argument. */
  assumedListSize: 10,
  /** A `limit` argument's default and cap (docs/README.md decision 5). */
  defaultPageSize: 100,
  maxPageSize: 1_000,
} as const;

const parseRefusal = (message: string) =>
  new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED', http: { status: 400 } } });
const validationRefusal = (message: string) =>
  new GraphQLError(message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } });

/**
 * Checks the query text before Apollo parses and validates it: its length, how deeply brackets nest
 * outside strings and comments (graphql-js parses recursively: 5,000 nested braces overflow the
 * stack), then, parsed within the token limit, that no costly field is repeated (see
 * `repeatedField`). Answers the refusal, or null; a document that does not parse is left to Apollo,
 * which answers the same syntax error.
 */
export function checkQueryText(query: unknown): GraphQLError | null {
  if (typeof query !== 'string') return null; // Apollo answers a missing or non-string query itself.
  if (query.length > GRAPHQL_LIMITS.maxQueryLength) {
    return parseRefusal(`Syntax Error: Document contains more than ${GRAPHQL_LIMITS.maxQueryLength} characters.`);
  }
  if (nestingOf(query) > GRAPHQL_LIMITS.maxNesting) {
    return parseRefusal(`Syntax Error: Document nests brackets more than ${GRAPHQL_LIMITS.maxNesting} levels deep.`);
  }
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: GRAPHQL_LIMITS.maxTokens });
  } catch {
    return null;
  }
  const repeated = repeatedField(document);
  return repeated
    ? validationRefusal(`Field "${repeated}" is selected more than once in one selection set; select it once, or give each an alias.`)
    : null;
}

/**
 * The first response name selected more than once in one selection set (inline fragments included)
 * where either selection has arguments or sub-selections, or more than `maxLeafRepeats` times at
 * all. GraphQL merges repeated fields but first compares every pair, recursively, and validation
 * precedes authorization: 110 copies of `featureFlag(projectId: "1") { id }` or 990 of `id` (1,000
 * tokens, no key) cost about a second. Repeats through named fragments are compared once per pair
 * of fragments and pass.
 */
function repeatedField(document: DocumentNode): string | null {
  let found: string | null = null;
  const costly = (field: FieldNode) => field.selectionSet !== undefined || (field.arguments?.length ?? 0) > 0;
  const collect = (set: SelectionSetNode, into: Map<string, { count: number; costly: boolean }>): void => {
    for (const selection of set.selections) {
      if (found) return;
      if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet, into);
      if (selection.kind !== Kind.FIELD) continue;
      const name = selection.alias?.value ?? selection.name.value;
      const seen = into.get(name) ?? { count: 0, costly: false };
      seen.count += 1;
      seen.costly ||= costly(selection);
      if (seen.count > (seen.costly ? 1 : GRAPHQL_LIMITS.maxLeafRepeats)) found = name;
      into.set(name, seen);
    }
  };
  visit(document, {
    SelectionSet(node) {
      collect(node, new Map());
      return found ? BREAK : undefined;
    },
  });
  return found;
}

/** The deepest nesting of `{ [ (` in GraphQL source text, skipping strings, block strings and comments. */
function nestingOf(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 35 /* # */) {
      while (i < source.length && source.charCodeAt(i) !== 10 && source.charCodeAt(i) !== 13) i++;
    } else if (c === 34 /* " */) {
      if (source.startsWith('"""', i)) {
        const end = source.indexOf('"""', i + 3);
        // Block strings escape only `\"""`; any other backslash is literal.
        let close = end;
        while (close !== -1 && source.charCodeAt(close - 1) === 92) close = source.indexOf('"""', close + 3);
        i = close === -1 ? source.length : close + 2;
      } else {
        for (i++; i < source.length; i++) {
          const s = source.charCodeAt(i);
          if (s === 92) i++;
          else if (s === 34 || s === 10 || s === 13) break;
        }
      }
    } else if (c === 123 || c === 91 || c === 40) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 125 || c === 93 || c === 41) {
      depth--;
    }
  }
  return deepest;
}

/** graphql-armor reports through `onReject`; its messages start with "Syntax Error: ", which these are not. */
const reportArmor = (context: ValidationContext | null, error: GraphQLError) =>
  context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, '')));

/**
 * A list field selected inside itself, on any path (fragments followed): `FeatureFlag.experiments`
 * within `FeatureFlag.experiments` (through `Experiment.featureFlag`), `__Type.fields` within
 * `__Type.fields`. Such a query only repeats what it already has, and multiplies the response by the
 * list's length at every turn (20 experiments on a flag, 6 turns: 4.6 GB). The standard introspection
 * query has no such path. Linear: each fragment is read once.
 */
export function noListInsideItselfRule(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  const fragments = new Map<string, { keys: Set<string>; cycle: string | null } | 'reading'>();

  /** The list fields anywhere below `selectionSet`; throws the key of the first one found inside itself. */
  function read(selectionSet: SelectionSetNode, parent: GraphQLCompositeType, above: ReadonlySet<string>): Set<string> {
    const found = new Set<string>();
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const field = fieldOf(schema, parent, selection.name.value);
        if (!field || !selection.selectionSet) continue;
        const type = getNamedType(field.type);
        if (!isCompositeType(type)) continue;
        const key = `${parent.name}.${field.name}`;
        const isList = isListType(getNullableType(field.type));
        if (isList && above.has(key)) throw new ListInsideItself(key);
        if (isList) found.add(key);
        const below = read(selection.selectionSet, type, isList ? new Set([...above, key]) : above);
        for (const inner of below) found.add(inner);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        if (!condition || !isCompositeType(condition)) continue;
        for (const inner of read(selection.selectionSet, condition, above)) found.add(inner);
      } else {
        const summary = fragment(context.getFragment(selection.name.value));
        if (!summary) continue;
        if (summary.cycle) throw new ListInsideItself(summary.cycle);
        for (const inner of summary.keys) {
          if (above.has(inner)) throw new ListInsideItself(inner);
          found.add(inner);
        }
      }
    }
    return found;
  }

  function fragment(definition: FragmentDefinitionNode | null | undefined) {
    if (!definition) return null;
    const known = fragments.get(definition.name.value);
    if (known === 'reading') return null; // a fragment cycle: NoFragmentCyclesRule reports it
    if (known) return known;
    fragments.set(definition.name.value, 'reading');
    const type = schema.getType(definition.typeCondition.name.value);
    let summary: { keys: Set<string>; cycle: string | null } = { keys: new Set(), cycle: null };
    if (type && isCompositeType(type)) {
      try {
        summary = { keys: read(definition.selectionSet, type, new Set()), cycle: null };
      } catch (error) {
        if (!(error instanceof ListInsideItself)) throw error;
        summary = { keys: new Set(), cycle: error.key };
      }
    }
    fragments.set(definition.name.value, summary);
    return summary;
  }

  return {
    OperationDefinition(operation) {
      const root = schema.getRootType(operation.operation);
      if (!root) return;
      try {
        read(operation.selectionSet, root, new Set());
      } catch (error) {
        if (!(error instanceof ListInsideItself)) throw error;
        context.reportError(
          new GraphQLError(`The list field "${error.key}" is selected inside itself; select it once on any path.`, { nodes: [operation] }),
        );
      }
    },
  };
}

/** A field of `parent`, the introspection entry points of the query root included. */
function fieldOf(schema: GraphQLSchema, parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

class ListInsideItself extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/** Validation rules Apollo runs with graphql-js's own (the results are cached per document). */
export const limitRules: ValidationRule[] = [
  maxDepthRule({
    n: GRAPHQL_LIMITS.maxDepth,
    flattenFragments: true,
    ignoreIntrospection: false,
    propagateOnRejection: false,
    onReject: [reportArmor],
  }),
  maxAliasesRule({ n: GRAPHQL_LIMITS.maxAliases, propagateOnRejection: false, onReject: [reportArmor] }),
  noListInsideItselfRule,
];

/**
 * The cost of a field: the objects it may add to the response. A non-list object field costs 1 plus
 * its selections; a field with a `limit` argument returns a page of `limit` items (default 100, at
 * most 1000, as the resolvers clamp it), so its selections count that many times (the page's
 * `results` list is not counted again); any other list is assumed to hold `assumedListSize` items.
 * Scalars cost nothing (their size is the data's, not the query's). A field that computes adds its
 * weight (src/graphql/computing-fields.ts) once per parent object, multiplied like objects by the
 * lists around it.
 */
function costEstimator(schema: GraphQLSchema): ComplexityEstimator {
  const known = estimators.get(schema);
  if (known) return known;
  const pageTypes = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) if (takesLimit(field)) pageTypes.add(getNamedType(field.type).name);
  }
  const estimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
    const own = isCompositeType(getNamedType(field.type)) ? 1 : 0;
    const weight = computingWeight(type.name, field.name);
    if (takesLimit(field)) return weight + own + pageSize(args.limit) * childComplexity;
    if (pageTypes.has(type.name)) return weight + own + childComplexity;
    let size = 1;
    for (let t = getNullableType(field.type); isListType(t); t = getNullableType(t.ofType)) size *= GRAPHQL_LIMITS.assumedListSize;
    return weight + size * (own + childComplexity);
  };
  estimators.set(schema, estimator);
  return estimator;
}

const estimators = new WeakMap<GraphQLSchema, ComplexityEstimator>();

const takesLimit = (field: GraphQLField<unknown, unknown>) => field.args.some((arg) => arg.name === 'limit');
const pageSize = (limit: unknown) =>
  typeof limit === 'number' && limit > 0 ? Math.min(limit, GRAPHQL_LIMITS.maxPageSize) : GRAPHQL_LIMITS.defaultPageSize;

/** The operation's estimated cost with the request's variables, or null when they do not fit it (execution reports that). */
export function estimateCost(
  schema: GraphQLSchema,
  query: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown> | undefined,
): number | null {
  try {
    return getComplexity({ schema, query, operationName, variables: variables ?? {}, estimators: [costEstimator(schema)] });
  } catch (error) {
    // Fragments spread so often that the walk would visit more than 10,000 nodes: too costly as well.
    if (error instanceof GraphQLError && /maximum allowed number of nodes/.test(error.message)) return Number.POSITIVE_INFINITY;
    return null;
  }
}

/** After validation, with the request's variables: the cost limit, then the arguments' NUL rule. */
const limitsPlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ schema, document, operation, request }) {
        if (!operation) return; // no such operation: execution reports it
        const cost = estimateCost(schema, document, operation.name?.value ?? request.operationName ?? undefined, request.variables);
        if (cost !== null && cost > GRAPHQL_LIMITS.maxCost) {
          const shown = Number.isFinite(cost) ? `, estimated ${cost}` : '';
          throw validationRefusal(
            `Query cost limit of ${GRAPHQL_LIMITS.maxCost} exceeded${shown}; ask for fewer or smaller lists (a smaller limit), or fewer computed fields.`,
          );
        }
        refuseNulArguments(schema, document, operation, request.variables);
      },
    };
  },
};

/** What createApp gives Apollo: the parser's token limit, the validation rules and the plugin. */
export const apolloLimits: Pick<ApolloServerOptions<never>, 'parseOptions' | 'validationRules'> & { plugins: ApolloServerPlugin[] } = {
  parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
  validationRules: limitRules,
  plugins: [limitsPlugin],
};
