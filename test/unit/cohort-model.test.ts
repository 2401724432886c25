import { definitionInWords, distinctIdsOf, groupOf, pasteProblem, propertiesOf, type Group } from '../../web/src/cohorts/cohort-model';

/** The console's cohort editor model (web/src/cohorts/cohort-model.ts) against docs/cohorts.md §2's shapes. */

const plan = (value: unknown, extra: Record<string, unknown> = {}) => ({ type: 'person', key: 'plan', operator: 'exact', value, ...extra });
const ref = (value: number, extra: Record<string, unknown> = {}) => ({ type: 'cohort', key: 'id', value, ...extra });

describe('cohort editor model', () => {
  it('wraps filters that sit next to groups in a group of the same AND/OR, and reads that back as built', () => {
    const built: Group = {
      kind: 'group',
      type: 'AND',
      values: [
        { kind: 'cohort', cohortId: '4', negation: false },
        {
          kind: 'group',
          type: 'OR',
          values: [
            { kind: 'person', key: 'plan', operator: 'exact', value: 'pro', negation: false },
            { kind: 'person', key: 'plan', operator: 'exact', value: 'team, free', negation: true },
          ],
        },
      ],
    };
    const saved = propertiesOf(built);
    expect(saved).toEqual({
      type: 'AND',
      values: [
        { type: 'AND', values: [ref(4)] },
        { type: 'OR', values: [plan('pro'), plan(['team', 'free'], { negation: true })] },
      ],
    });
    expect(propertiesOf(groupOf({ properties: saved }))).toEqual(saved);
    expect(groupOf({ properties: saved }).values.map((v) => v.kind)).toEqual(['cohort', 'group']);
  });

  it('keeps an empty group inside an OR (it matches everyone), event filters as they were, and is_set as the operator', () => {
    const properties = {
      type: 'OR',
      values: [
        { type: 'AND', values: [] },
        {
          type: 'AND',
          values: [
            { type: 'behavioral', key: 'seen', value: 'performed_event' },
            { type: 'person', key: 'email', operator: 'is_set', value: 'is_set' },
          ],
        },
      ],
    };
    expect(propertiesOf(groupOf({ properties }))).toEqual(properties);
    expect(groupOf(null)).toEqual({ kind: 'group', type: 'AND', values: [] });
  });

  it('reads a pasted list one per line or comma-separated, and bounds it as the API does', () => {
    expect(distinctIdsOf(' a\nb, c\n\na,')).toEqual(['a', 'b', 'c']);
    expect(pasteProblem([], true)).toBe('Paste at least one distinct id.');
    expect(pasteProblem([], false)).toBeUndefined();
    expect(
      pasteProblem(
        Array.from({ length: 10_001 }, (_, i) => `id-${i}`),
        false,
      ),
    ).toMatch(/^At most 10,000 distinct ids at once/);
  });

  it('says the definition in words, with references by name', () => {
    const filters = {
      properties: {
        type: 'AND',
        values: [
          { type: 'AND', values: [ref(4, { negation: true })] },
          { type: 'OR', values: [plan('pro'), plan('team')] },
        ],
      },
    };
    expect(definitionInWords(filters, new Map([[4, 'Beta']]))).toEqual({
      text: 'all of',
      children: [{ text: 'not in cohort “Beta”' }, { text: 'any of', children: [{ text: 'plan = pro' }, { text: 'plan = team' }] }],
    });
    expect(definitionInWords({ properties: { type: 'AND', values: [ref(9)] } }, new Map()).text).toBe('in cohort #9');
  });
});
