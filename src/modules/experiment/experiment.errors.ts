import { ValidationError } from '../../errors';

/** Experiments answer upstream's `invalid` code, not the field parsers' `invalid_input` (docs/experiments.md §2). */
export const invalid = (detail: string, attr: string | null) => new ValidationError('invalid', detail, attr);

/** The experiment endpoints' messages (docs/experiments.md §2–§5). */
export const experimentErrors = {
  secondaryMetricsNotList: () => invalid('secondary_metrics must be a list', 'secondary_metrics'),
  filtersNotObject: () => invalid('filters must be a JSON object', 'filters'),
  filtersRequired: () => invalid('Filters are required to create an Experiment', null),
  globalProperties: () => invalid('Experiments do not support global filter properties', null),
  endBeforeStart: () => invalid('End date must be after start date', null),
  parametersNotObject: () => invalid('parameters must be a JSON object', 'parameters'),
  aggregationIndex: () => invalid('aggregation_group_type_index must be an integer between 0 and 4', 'parameters'),
  variantsNotList: () => invalid('Feature flag variants must be a list', 'parameters'),
  tooManyVariants: () => invalid('Feature flag variants must be less than 21', 'parameters'),
  oneVariant: () => invalid('Feature flag variants must contain at least 2 variants', 'parameters'),
  variantWithoutKey: () => invalid('Each feature flag variant must have a key', 'parameters'),
  duplicateVariantKeys: () => invalid('Feature flag variant keys must be unique', 'parameters'),
  noControl: () => invalid('Feature flag variants must contain a control variant', 'parameters'),
  variantPercentage: () =>
    invalid('Invalid variant definitions: Variant rollout percentages must be numbers between 0 and 100.', 'parameters'),
  variantSum: () => invalid('Invalid variant definitions: Variant rollout percentages must sum to 100.', 'parameters'),
  flagKeyFixed: () => invalid("Can't update keys: feature_flag_key on Experiment", null),
  flagNotEligible: () => invalid('Feature flag is not eligible for experiments.', 'feature_flag_key'),
  controlNotFirst: () => invalid('Feature flag must have control as the first variant.', 'feature_flag_key'),
  variantsFixed: () => invalid("Can't update feature_flag_variants on Experiment", null),
  unusableRegex: (path: string, reason: string, attr: string) =>
    invalid(`${path}.value is not a regular expression this service can evaluate: ${reason}`, attr),
};
