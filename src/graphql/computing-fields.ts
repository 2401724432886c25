/**
 * Fields that compute over a project's events, persons or flags instead of reading stored rows, and
 * what each adds to a document's estimated cost (src/graphql/limits.ts, in objects; the limit is
 * 50,000) on top of the objects it returns. The cost model multiplies a weight by the sizes of the
 * lists around it, as it does for objects, so a weight reads as "50,000 / weight of these per request".
 *
 * SPEC-GAP: the API document prices no GraphQL field; these weights are ours (docs/graphql.md, "Limits").
 * They follow what one computation costs the database:
 * - a result of an experiment metric is a transaction of 4–8 aggregating statements over the
 *   experiment's events on one connection: 2,000 (24 results per request; a list of 1,000
 *   experiments with their results, once 24 aliases of it held every pooled connection, is refused);
 * - flag evaluations read every flag, the person and their groups, then evaluate every flag: 2,000;
 * - a blast radius counts the project's persons (or groups) twice over their properties: 5,000;
 * - the flag-implementation hint scans a week of the named events' properties: 1,000;
 * - a tile's result is counted with every tile of the page that reads the same events, in one
 *   statement per kind of tile (docs/dashboards.md): 25, so a page of 100 dashboards with their
 *   results still fits;
 * - a cohort's count is measured once per page for every cohort of a project: 20, so a page of
 *   1,000 cohorts with their counts still fits;
 * - an experiment's exposure count is one statement over the partial `$feature_flag_called` index
 *   (the results' exposure query alone): 200, so a page of 100 experiments with theirs fits;
 * - the event names walk at most 10,000 names on an index, two probes each: 500.
 */
export const COMPUTING_FIELD_WEIGHTS: Readonly<Record<string, number>> = {
  'Experiment.results': 2_000,
  'Experiment.secondaryResults': 2_000,
  'Query.featureFlagEvaluations': 2_000,
  'Query.myFeatureFlags': 2_000,
  'Query.featureFlagBlastRadius': 5_000,
  // One blast radius per condition set: a flag has a handful, so this prices about five.
  'FeatureFlag.conditionReach': 25_000,
  'Query.experimentRequiresFlagImplementation': 1_000,
  'Insight.result': 25,
  'Cohort.count': 20,
  'Experiment.exposureCount': 200,
  'Query.eventNames': 500,
};

/** The weight of `Type.field`, 0 for a field that only reads. */
export const computingWeight = (typeName: string, fieldName: string): number => COMPUTING_FIELD_WEIGHTS[`${typeName}.${fieldName}`] ?? 0;
