import { ValidationError } from '../../errors';
import { ofrepErrors } from './ofrep.errors';
import { readSubject, type RemoteEvaluationSubject } from './remote-evaluation.request';

/**
 * SPEC-GAP (OFREP leaves attribute names to the service): the context attributes that name groups
 * and their properties, as `/flags` takes `groups` and `group_properties` (docs/openfeature.md, "The context").
 * `$` keeps them apart from person properties, as PostHog's own reserved names are.
 */
export const GROUPS_ATTRIBUTE = '$groups';
export const GROUP_PROPERTIES_ATTRIBUTE = '$group_properties';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An OFREP request body `{context: {...}}` as the subject `/flags` would evaluate
 * (docs/openfeature.md, "The context"): `targetingKey` is the distinct id, `$groups` and
 * `$group_properties` the groups, every other attribute a person property laid over the stored ones.
 * The bounds are `/flags`' own (readSubject): its refusals become INVALID_CONTEXT.
 * `flagKey`: the single flag asked for; absent: every flag.
 */
export function readOfrepSubject(body: unknown, flagKey?: string): RemoteEvaluationSubject {
  if (!isObject(body)) throw ofrepErrors.parse('The request body must be a JSON object {"context": {...}}');
  const context = body.context;
  if (context === undefined || context === null) throw ofrepErrors.targetingKeyMissing();
  if (!isObject(context)) throw ofrepErrors.invalidContext('context must be an object');
  const { targetingKey, [GROUPS_ATTRIBUTE]: groups, [GROUP_PROPERTIES_ATTRIBUTE]: groupProperties, ...personProperties } = context;
  if (targetingKey === undefined || targetingKey === null || targetingKey === '') throw ofrepErrors.targetingKeyMissing();
  // SPEC-GAP: a number is its text, as `/flags` reads `distinct_id`; anything else is not an id.
  if (typeof targetingKey !== 'string' && !(typeof targetingKey === 'number' && Number.isFinite(targetingKey))) {
    throw ofrepErrors.invalidContext('context.targetingKey must be a string');
  }
  try {
    return readSubject({
      distinct_id: targetingKey,
      person_properties: personProperties,
      groups,
      group_properties: groupProperties,
      flag_keys: flagKey === undefined ? undefined : [flagKey],
    });
  } catch (error) {
    if (error instanceof ValidationError) throw ofrepErrors.invalidContext(contextDetail(error));
    throw error;
  }
}

/** `/flags`' message in OFREP's names: `groups` → `$groups`, `person_properties` → `context`. */
function contextDetail(error: ValidationError): string {
  return error.detail
    .replace(/^group_properties/, `context.${GROUP_PROPERTIES_ATTRIBUTE}`)
    .replace(/^groups/, `context.${GROUPS_ATTRIBUTE}`)
    .replace(/^person_properties may hold/, 'context may hold')
    .replace(/^person_properties/, 'context');
}
