import { getNamedType, getNullableType, isInputObjectType, isListType, isScalarType, type GraphQLSchema } from 'graphql';
import { jsonTextRefusal } from '../validation/fields';
import { isPlainObject } from '../validation/python';

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A REST body as the GraphQL input type `typeName` names its fields: a shallow, schema-driven
 * rename of the top-level keys (`ensure_experience_continuity` → `ensureExperienceContinuity`).
 * Values are never rewritten, so user keys inside `filters` stay as sent. Form bodies carry
 * object and array fields as JSON text (docs/rest-api.md §1.2); those are parsed here. A body that
 * is not an object is passed on as it is: the service refuses it after its own lookups and
 * permission checks (docs/rest-api.md §1.3 puts 404 and 403 before 400).
 */
export function restInput(schema: GraphQLSchema, typeName: string, body: unknown, isForm: boolean): unknown {
  const type = schema.getType(typeName);
  if (!isInputObjectType(type)) throw new Error(`${typeName} is not an input type`);
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body)) return body;
  const source = body;
  const input: Record<string, unknown> = {};
  for (const field of Object.values(type.getFields())) {
    const wireName = snakeCase(field.name);
    if (!Object.prototype.hasOwnProperty.call(source, wireName)) continue;
    let value = source[wireName];
    const fieldType = getNullableType(field.type);
    const isStructured =
      isListType(fieldType) || (isScalarType(getNamedType(fieldType)) && getNamedType(fieldType).name.startsWith('JSON'));
    // Read on the text first: parsing a deep or many-shaped one would build it all before refusing it.
    if (isForm && isStructured && typeof value === 'string' && jsonTextRefusal(value) === null) {
      try {
        value = JSON.parse(value);
      } catch {
        // Left as text: validation names the field's expected type.
      }
    }
    input[field.name] = value;
  }
  return input;
}
