import { fieldErrors, requestErrors, ValidationError } from '../../errors';

/** A flag's own messages beyond its filters (flag-filters.errors.ts): docs/rest-api.md §3. */
export const flagErrors = {
  keyTaken: () => new ValidationError('unique', 'There is already a feature flag with this key.', 'key'),
  filtersTooLarge: (limit: number) =>
    new ValidationError('max_length', `Ensure filters are no more than ${limit} bytes as JSON.`, 'filters'),
  /** The key format, for a flag's `key` or an experiment's `feature_flag_key`. */
  invalidKey: (attr: string) =>
    new ValidationError('invalid_key', 'Only letters, numbers, hyphens (-) & underscores (_) are allowed.', attr),
  keyHeldByExperiment: () =>
    fieldErrors.invalidInput(
      'Feature flag with this key already exists and is used in an experiment. Please delete the experiment before deleting the flag.',
    ),
  updatedSince: (email: string | null) =>
    requestErrors.conflict(
      `The feature flag was updated by ${email ?? 'another user'} since you started editing it. Please refresh and try again.`,
    ),
};
