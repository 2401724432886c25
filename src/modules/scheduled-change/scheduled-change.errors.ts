import { ValidationError } from '../../errors';

/** Scheduled changes' messages (docs/scheduled-changes.md). */
export const scheduledChangeErrors = {
  // SPEC-GAP: PostHog lets an executed change be edited (to no effect); here it is refused.
  alreadyRun: () => new ValidationError('invalid_input', 'This change has already run and can no longer be edited.'),
  schedulerGone: () =>
    new ValidationError('invalid_input', 'The user who scheduled this change is no longer an active member of the project.'),
  flagGone: () => new ValidationError('invalid_input', 'The feature flag no longer exists.', 'record_id'),
};
