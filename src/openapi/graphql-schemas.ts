import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  isScalarType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLInterfaceType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLType,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type VariableDefinitionNode,
} from 'graphql';
import type { JsonSchema } from './types';

/** A GraphQL enum on the REST wire: its internal values (REST sends 37 where GraphQL says CAN_ALWAYS_EDIT). */
function enumSchema(type: GraphQLEnumType): JsonSchema {
  const values = type.getValues().map((v) => v.value as string | number);
  return { type: values.every((v) => typeof v === 'number') ? 'integer' : 'string', enum: values };
}

/**
 * JSON Schemas read from the GraphQL schema: a REST row's response is its operation's selection
 * (aliases are the wire names, see src/rest/fragments.ts), its body the input type with snake_case
 * names (src/rest/input.ts). Fragments become named components (`RestFeatureFlag` → `FeatureFlag`),
 * input types keep their GraphQL name.
 */

const DATE_TIME: JsonSchema = { type: 'string', format: 'date-time' };

/** The scalars' wire forms; a scalar not listed is documented as any JSON value with its description. */
const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
  DateTime: DATE_TIME,
  ExperimentDateTime: DATE_TIME,
  EventTimestamp: DATE_TIME,
  JSON: {},
  JSONObject: { type: 'object' },
};

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** `RestFeatureFlag` → `FeatureFlag`. */
export const componentNameOfFragment = (fragment: string) => fragment.replace(/^Rest(?=[A-Z])/, '');

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

function scalarSchema(type: GraphQLNamedType): JsonSchema {
  const known = SCALARS[type.name];
  if (known) return { ...known };
  return type.description ? { description: type.description } : {};
}

/** `schema` or null: JSON Schema's `type` list when it has a single type, else `anyOf`. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0 || (Object.keys(schema).length === 1 && 'description' in schema)) return schema;
  const { description, ...rest } = schema;
  if (typeof rest.type === 'string' && !('$ref' in rest)) {
    const widened: JsonSchema = { ...rest, type: [rest.type, 'null'] };
    if (Array.isArray(rest.enum)) widened.enum = [...rest.enum, null];
    return description === undefined ? widened : { description, ...widened };
  }
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}

function withDescription(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  if (!description) return schema;
  return { description, ...schema };
}

/** Collects named component schemas while documents are read; the same name must always mean the same schema. */
export class ComponentRegistry {
  readonly schemas = new Map<string, JsonSchema>();

  define(name: string, schema: JsonSchema): JsonSchema {
    const existing = this.schemas.get(name);
    if (existing && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`OpenAPI: two different shapes are both named ${name} (rename one GraphQL fragment)`);
    }
    this.schemas.set(name, schema);
    return ref(name);
  }

  has(name: string) {
    return this.schemas.has(name);
  }
}

/** Reads the output shapes of one REST operation document. */
export class SelectionReader {
  private readonly fragments: Map<string, FragmentDefinitionNode>;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly components: ComponentRegistry,
    document: DocumentNode,
  ) {
    this.fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
  }

  /** The schema of a field's value: its GraphQL type with the field's own selection. */
  fieldValue(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return this.nonNullValue(type.ofType, selectionSet);
    return nullable(this.nonNullValue(type, selectionSet));
  }

  private nonNullValue(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.fieldValue(type.ofType, selectionSet) };
    if (isScalarType(type)) return scalarSchema(type);
    if (isEnumType(type)) return enumSchema(type);
    if ((isObjectType(type) || isInterfaceType(type)) && selectionSet) return this.selection(type, selectionSet);
    return {};
  }

  /** A selection set: exactly one fragment spread is a reference to its component; anything else an inline object. */
  selection(parent: GraphQLObjectType | GraphQLInterfaceType, selectionSet: SelectionSetNode): JsonSchema {
    const [only] = selectionSet.selections;
    if (selectionSet.selections.length === 1 && only.kind === Kind.FRAGMENT_SPREAD) return this.fragment(only.name.value);
    const properties: Record<string, JsonSchema> = {};
    this.collect(parent, selectionSet, properties);
    return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
  }

  private fragment(name: string): JsonSchema {
    const componentName = componentNameOfFragment(name);
    const fragment = this.fragments.get(name);
    if (!fragment) throw new Error(`OpenAPI: fragment ${name} is not in the document`);
    const parent = this.schema.getType(fragment.typeCondition.name.value);
    if (!isObjectType(parent) && !isInterfaceType(parent)) throw new Error(`OpenAPI: fragment ${name} is not on an object type`);
    // The same name in another document must describe the same fields (define() checks).
    const properties: Record<string, JsonSchema> = {};
    this.collect(parent, fragment.selectionSet, properties);
    this.components.define(
      componentName,
      withDescription({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false }, parent.description),
    );
    return ref(componentName);
  }

  private collect(parent: GraphQLObjectType | GraphQLInterfaceType, selectionSet: SelectionSetNode, into: Record<string, JsonSchema>) {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        into[wireName(selection)] = this.field(parent, selection);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = this.fragments.get(selection.name.value);
        if (fragment) this.collect(parent, fragment.selectionSet, into);
      } else {
        this.collect(parent, selection.selectionSet, into);
      }
    }
  }

  private field(parent: GraphQLObjectType | GraphQLInterfaceType, node: FieldNode): JsonSchema {
    if (node.name.value === '__typename') return { type: 'string' };
    const definition = parent.getFields()[node.name.value];
    if (!definition) return {};
    return withDescription(this.fieldValue(definition.type, node.selectionSet), definition.description);
  }
}

const wireName = (field: FieldNode) => field.alias?.value ?? field.name.value;

/** A GraphQL input type as a REST body: snake_case names, every field optional (absent means unchanged). */
export function inputComponent(schema: GraphQLSchema, components: ComponentRegistry, typeName: string): JsonSchema {
  const type = schema.getType(typeName);
  if (!isInputObjectType(type)) throw new Error(`OpenAPI: ${typeName} is not an input type`);
  if (!components.has(typeName)) {
    const properties: Record<string, JsonSchema> = {};
    // Registered first so a recursive input type refers to itself.
    components.define(typeName, {});
    for (const field of Object.values(type.getFields())) {
      properties[snakeCase(field.name)] = withDescription(inputValue(schema, components, field.type), field.description);
    }
    components.schemas.delete(typeName);
    components.define(typeName, withDescription({ type: 'object', properties }, type.description));
  }
  return ref(typeName);
}

function inputValue(schema: GraphQLSchema, components: ComponentRegistry, type: GraphQLInputType): JsonSchema {
  if (isNonNullType(type)) return inputNonNull(schema, components, type.ofType);
  return nullable(inputNonNull(schema, components, type));
}

function inputNonNull(schema: GraphQLSchema, components: ComponentRegistry, type: GraphQLInputType): JsonSchema {
  if (isListType(type)) return { type: 'array', items: inputValue(schema, components, type.ofType) };
  if (isScalarType(type)) return scalarSchema(type);
  if (isEnumType(type)) return enumSchema(type);
  if (isInputObjectType(type)) return inputComponent(schema, components, type.name);
  return {};
}

/** A GraphQL variable read from the query string: lists and JSON objects travel as JSON text. */
export function queryParameterSchema(
  schema: GraphQLSchema,
  definition: VariableDefinitionNode,
): { schema: JsonSchema; required: boolean; jsonObject: boolean } {
  const type = typeFromAST(schema, definition.type as never) as GraphQLType | undefined;
  if (!type) return { schema: { type: 'string' }, required: false, jsonObject: false };
  const named = getNullableType(type);
  let value: JsonSchema;
  if (isListType(named)) value = { type: 'string', description: 'A JSON list, e.g. ["a","b"].' };
  else if (isScalarType(named) && (named.name === 'JSONObject' || named.name === 'JSON'))
    value = { type: 'string', description: 'A JSON object.' };
  else if (isEnumType(named)) value = enumSchema(named);
  else if (isScalarType(named)) value = scalarSchema(named);
  else value = { type: 'string' };
  return {
    schema: value,
    required: isNonNullType(type),
    jsonObject: isScalarType(named) && (named.name === 'JSONObject' || named.name === 'JSON'),
  };
}

/** The single root field of a REST operation (`page: …` or `item: …`). */
export function rootField(operation: OperationDefinitionNode, alias: 'page' | 'item'): FieldNode | null {
  return operation.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD && wireName(s) === alias) ?? null;
}
