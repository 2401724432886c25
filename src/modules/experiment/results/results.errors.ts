import { ValidationError } from '../../../errors';

const invalid = (detail: string) => new ValidationError('invalid', detail, null);

/** The refusals of experiment results (docs/experiment-results.md): 400s, never cached. */
export const resultErrors = {
  noTargetMetric: () => invalid('Experiment has no target metric'),
  onlyEvents: () => invalid('Experiment metrics can only use events'),
  notFunnelOrTrend: () => invalid('Experiment metric must be a funnel or trend insight'),
  notStarted: () => invalid('Experiment has not started yet'),
  unsupportedMath: (math: string) => invalid(`Unsupported math: ${math}`),
  propertyType: () => invalid('Experiment metric property filters must be of type event or person'),
  // SPEC-GAP: limits of this service (docs/experiment-results.md, "Limits"), so one request cannot run without bound.
  tooManySteps: (max: number) => invalid(`Experiment funnels can have at most ${max} steps`),
  tooManyDays: (max: number) => invalid(`Experiment trend results can cover at most ${max} days`),
  /** The exact JSON text the API answers when a variant has no data, keys in this order. */
  noResults: (flags: { noEvents: boolean; noControl: boolean; noTest: boolean }) => {
    const noFlagInfo = flags.noControl && flags.noTest;
    return new ValidationError(
      'no-results',
      `{"no-events": ${flags.noEvents}, "no-flag-info": ${noFlagInfo}, "no-control-variant": ${flags.noControl}, "no-test-variant": ${flags.noTest}}`,
      null,
    );
  },
  noSecondaryMetrics: () => invalid('Experiment has no secondary metrics'),
  secondaryIdRequired: () => invalid('Secondary metric id is required'),
  secondaryIdNotInteger: () => invalid('Secondary metric id must be an integer'),
  secondaryIdOutOfRange: () => invalid('Invalid metric ID'),
  secondaryNotFunnelOrTrend: () => invalid('Secondary metrics need to be funnel or trend insights'),
};
