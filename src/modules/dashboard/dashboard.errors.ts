import { fieldErrors } from '../../errors';

/** The refusals of the flag's dashboard helpers (docs/dashboards.md), upstream's messages. */
export const dashboardErrors = {
  unableToGenerate: () => fieldErrors.invalidInput('Unable to generate usage dashboard'),
  notFound: () => fieldErrors.invalidInput('Usage dashboard not found'),
  alreadyEnriched: () => fieldErrors.invalidInput('Usage dashboard already has enriched data'),
  noEnrichedAnalytics: () => fieldErrors.invalidInput('No enriched analytics available for this feature flag'),
  /** SPEC-GAP: the API document has no read-time range; the message names the forms understood. */
  badDateFrom: () =>
    fieldErrors.invalidInput(
      'Expected a relative range like -7d or -2w (days or weeks before today; more than 365 days reads 365).',
      'dateFrom',
    ),
  unableToEnrich: () => fieldErrors.invalidInput('Unable to enrich usage dashboard'),
};
