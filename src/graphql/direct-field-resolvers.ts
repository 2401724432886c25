import { GraphQLObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type Storage = ReturnType<typeof getMetadataStorage>;
type FieldResolverMetadata = Storage['fieldResolvers'][number];
type ParamMetadata = NonNullable<FieldResolverMetadata['params']>[number];
type Class = abstract new (...args: never[]) => unknown;

/** Where a parameter of a field resolver comes from. */
const SOURCES = {
  root: (root: unknown) => root,
  context: (_root: unknown, context: unknown) => context,
  info: (_root: unknown, _context: unknown, info: unknown) => info,
} as const;

/**
 * The parameter's source and, for a root declared as a class, that class; null when type-graphql
 * would convert, validate or pick a property.
 */
function sourceOf(param: ParamMetadata): { source: (typeof SOURCES)[keyof typeof SOURCES]; rootClass?: Class } | null {
  if (param.kind === 'context' && param.propertyName === undefined) return { source: SOURCES.context };
  if (param.kind === 'info') return { source: SOURCES.info };
  if (param.kind !== 'root' || param.propertyName !== undefined) return null;
  const declared: unknown = param.getType?.();
  // A root typed as an interface or a row type is declared `Object`: type-graphql passes it as it is.
  if (declared === undefined || declared === Object) return { source: SOURCES.root };
  return typeof declared === 'function' ? { source: SOURCES.root, rootClass: declared as Class } : null;
}

/**
 * The direct call of `resolver`'s method, or null when it needs what type-graphql's wrapper does.
 * A root declared as a class is passed as it is when it is an instance (or null), as type-graphql
 * does; any other root goes through `wrapped`, type-graphql's own resolver, which converts it.
 */
function directResolver(
  resolver: FieldResolverMetadata,
  wrapped: GraphQLFieldResolver<unknown, unknown>,
): GraphQLFieldResolver<unknown, unknown> | null {
  if (resolver.kind !== 'external' || resolver.middlewares?.length || resolver.roles !== undefined || !resolver.params) return null;
  // A resolver class whose constructor takes something (an injected service) keeps type-graphql's container.
  if (resolver.target.length > 0) return null;
  const params = [...resolver.params].sort((a, b) => a.index - b.index);
  const parts = params.map(sourceOf);
  if (parts.some((part, index) => part === null || params[index].index !== index)) return null;
  const rootClass = parts.find((part) => part!.rootClass)?.rootClass;
  const sources = parts.map((part) => part!.source);
  // This service's resolver classes hold no state: one instance serves, as type-graphql's default container's does.
  const instance = new (resolver.target as new () => Record<string, (...args: unknown[]) => unknown>)();
  const method = instance[resolver.methodName];
  const direct: GraphQLFieldResolver<unknown, unknown> =
    sources.length === 1 && sources[0] === SOURCES.root
      ? (root) => method.call(instance, root)
      : sources.length === 2 && sources[0] === SOURCES.root && sources[1] === SOURCES.context
        ? (root, _args, context) => method.call(instance, root, context)
        : (root, _args, context, info) =>
            method.apply(
              instance,
              sources.map((source) => source(root, context, info)),
            );
  if (!rootClass) return direct;
  return (root, args, context, info) =>
    root == null || root instanceof rootClass ? direct(root, args, context, info) : wrapped(root, args, context, info);
}

/**
 * type-graphql calls every `@FieldResolver` through a wrapper that, per call, builds an object of
 * its arguments, sorts and maps the method's parameter list and walks an empty middleware chain:
 * on a page of 100 flags, a fifth of the memory a list request allocates (a sampling allocation
 * profile). A field resolver whose parameters are only `@Root()`, `@Ctx()` and `@Info()` (none
 * picking a property), without middleware or roles, is called directly instead; any other keeps
 * the wrapper.
 * Matched as type-graphql matches them (the object type's class and the method's name); a type
 * that extends another class or implements an interface keeps every wrapper.
 */
export function withDirectFieldResolvers(schema: GraphQLSchema, resolverClasses: readonly Class[]): number {
  const storage = getMetadataStorage();
  const candidates = storage.fieldResolvers.filter((it) => it.kind === 'internal' || resolverClasses.includes(it.target as Class));
  let replaced = 0;
  for (const objectType of storage.objectTypes) {
    const type = schema.getType(objectType.name);
    if (!(type instanceof GraphQLObjectType) || objectType.interfaceClasses?.length) continue;
    if (storage.objectTypes.some((other) => other !== objectType && objectType.target.prototype instanceof other.target)) continue;
    const fields = type.getFields();
    for (const field of objectType.fields ?? []) {
      const resolver = candidates.find((it) => it.getObjectType?.() === field.target && it.methodName === field.name);
      const graphqlField = fields[field.schemaName];
      const direct = resolver && graphqlField?.resolve ? directResolver(resolver, graphqlField.resolve) : null;
      if (!direct) continue;
      graphqlField.resolve = direct;
      replaced++;
    }
  }
  return replaced;
}
