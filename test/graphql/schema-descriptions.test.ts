import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { buildPublicSchema } from '../../src/graphql/schema';

/** GraphQL's own scalars, described by the specification rather than by this schema. */
const BUILT_IN_SCALARS = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

const described = (description: string | null | undefined): boolean => Boolean(description?.trim());
const introspective = (name: string): boolean => name.startsWith('__');

/** Every type, field, argument and enum value of the schema without a description, as `Type.field(argument)`. */
function undescribed(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (introspective(type.name) || BUILT_IN_SCALARS.has(type.name)) continue;
    if (!described(type.description)) missing.push(`type ${type.name}`);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (introspective(field.name)) continue;
        if (!described(field.description)) missing.push(`${type.name}.${field.name}`);
        const args = 'args' in field ? field.args : [];
        for (const arg of args) {
          if (!introspective(arg.name) && !described(arg.description)) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    if (isEnumType(type)) {
      for (const value of type.getValues()) {
        if (!introspective(value.name) && !described(value.description)) missing.push(`${type.name}.${value.name}`);
      }
    }
  }
  return missing;
}

it('the public GraphQL schema describes every type, field, argument and enum value (add a `description` to each one listed)', async () => {
  expect(undescribed(await buildPublicSchema())).toEqual([]);
});
