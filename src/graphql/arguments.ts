import {
  getArgumentValues,
  getNamedType,
  getVariableValues,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { fieldErrors } from '../errors';
import { refusal } from './errors';

/** The description of every `projectId` argument (src/auth/access.ts resolves `@current`). */
export const PROJECT_ID_DESCRIPTION = "The project's id, or `@current` for the key user's current project.";

/** The description of every `organizationId` argument (src/auth/organization-access.ts resolves `@current`). */
export const ORGANIZATION_ID_DESCRIPTION = "The organization's UUID, or `@current` for the organization of the key user's current project.";

const TEXT_SCALARS = new Set(['String', 'ID']);

const holdsNul = (value: unknown): boolean =>
  typeof value === 'string' ? value.includes('\u0000') : Array.isArray(value) && value.some(holdsNul);

/**
 * SPEC-GAP: a `String` or `ID` argument (or list item) holding NUL is refused before anything runs:
 * BAD_USER_INPUT, reason `null_characters_not_allowed`, attr the argument's name, as a body field
 * holding NUL is. PostgreSQL cannot compare such text with anything, and a GraphQL argument is
 * typed input, not a lenient query parameter: REST ignores NUL in query parameters (a 404 for a path
 * id), GraphQL says so. Fields of input objects and JSON values are left to the services, which name
 * the field at fault. Runs on the operation to execute and the fragments it spreads.
 */
export function refuseNulArguments(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  rawVariables: Record<string, unknown> | undefined,
): void {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {}, { maxErrors: 1 });
  if (coerced.errors) return; // execution reports these
  const variables = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);

  const pending: ASTNode[] = [operation];
  const spread = new Set<string>();
  while (pending.length > 0) {
    const typeInfo = new TypeInfo(schema);
    visit(
      pending.pop()!,
      visitWithTypeInfo(typeInfo, {
        FragmentSpread(node) {
          const definition = fragments.get(node.name.value);
          if (definition && !spread.has(node.name.value)) {
            spread.add(node.name.value);
            pending.push(definition);
          }
        },
        Field(node) {
          const field = typeInfo.getFieldDef();
          if (!field || !node.arguments?.length) return;
          let values: Record<string, unknown>;
          try {
            values = getArgumentValues(field, node, variables);
          } catch {
            return; // validation or execution reports it
          }
          for (const arg of field.args) {
            if (TEXT_SCALARS.has(getNamedType(arg.type).name) && holdsNul(values[arg.name])) {
              throw refusal(fieldErrors.nullCharacters(arg.name));
            }
          }
        },
      }),
    );
  }
}
