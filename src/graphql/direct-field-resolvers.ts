import { GraphQLObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type Storage = ReturnType<typeof getMetadataStorage>;
type FieldResolverMetadata = Storage['fieldResolvers'][number];
type ParamMetadata = NonNullable<FieldResolverMetadata['params']>[number];
type Class = abstract new (...args: never[]) => unknown;
type Instance = Record<string, (...args: unknown[]) => unknown>;
/** What of `buildSchema`'s options decides whether a direct call would skip something. */
type BuildOptions = { resolvers: readonly unknown[]; globalMiddlewares?: readonly unknown[]; authChecker?: unknown; container?: unknown };

/**
 * One instance per resolver class, shared by its direct fields; null for a class that needs
 * type-graphql's container: one whose constructor takes something (an injected service), whose
 * instances hold state of their own, or that extends or is extended by another resolver class
 * (type-graphql's metadata then names the base class's method).
 */
function instances(resolverClasses: readonly Class[]) {
  const made = new Map<Class, Instance | null>();
  return (target: Class): Instance | null => {
    if (!made.has(target)) {
      const related = resolverClasses.some(
        (other) => other !== target && (other.prototype instanceof target || target.prototype instanceof other),
      );
      const instance = target.length > 0 || related ? null : (new (target as unknown as new () => Instance)() as Instance);
      made.set(target, instance && Object.keys(instance).length === 0 ? instance : null);
    }
    return made.get(target)!;
  };
}

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
  // A root typed as an interface or a row type has no declared type: type-graphql passes it as it is.
  if (declared === undefined) return { source: SOURCES.root };
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
  instanceOf: (target: Class) => Instance | null,
): GraphQLFieldResolver<unknown, unknown> | null {
  if (resolver.kind !== 'external' || resolver.middlewares?.length || resolver.roles !== undefined || !resolver.params) return null;
  const instance = instanceOf(resolver.target as Class);
  if (!instance) return null;
  const params = [...resolver.params].sort((a, b) => a.index - b.index);
  const parts = params.map(sourceOf);
  if (parts.some((part, index) => part === null || params[index].index !== index)) return null;
  const rootClass = parts.find((part) => part!.rootClass)?.rootClass;
  const sources = parts.map((part) => part!.source);
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
 * that extends another class or implements an interface keeps every wrapper, and so does every
 * field when the schema was built with global middlewares, an auth checker or a container.
 */
export function withDirectFieldResolvers(schema: GraphQLSchema, options: BuildOptions): number {
  if (options.globalMiddlewares?.length || options.authChecker || options.container) return 0;
  const resolverClasses = options.resolvers as readonly Class[];
  const instanceOf = instances(resolverClasses);
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
      const direct = resolver && graphqlField?.resolve ? directResolver(resolver, graphqlField.resolve, instanceOf) : null;
      if (!direct) continue;
      graphqlField.resolve = direct;
      replaced++;
    }
  }
  return replaced;
}
