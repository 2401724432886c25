import { Link } from 'react-router';
import { graphql } from '../gql';
import { ErrorMessage } from '../errors';
import { Pager } from '../Pager';
import type { ConsoleActivityEntryFragment } from '../gql/graphql';
import './activity.css';

/** What every activity view reads of an entry (spread it into the query that lists entries). */
export const ActivityEntryFields = graphql(`
  fragment ConsoleActivityEntry on ActivityEntry {
    id
    activity
    scope
    itemId
    createdAt
    user {
      email
      firstName
    }
    detail {
      name
      changes {
        field
        action
        before
        after
      }
    }
  }
`);

export type ActivityEntry = ConsoleActivityEntryFragment;

const SCOPE_WORDS: Record<ActivityEntry['scope'], { noun: string; path: string }> = {
  FeatureFlag: { noun: 'feature flag', path: '/feature-flags' },
  Experiment: { noun: 'experiment', path: '/experiments' },
  Cohort: { noun: 'cohort', path: '/cohorts' },
};

/** The entry's verb: `updated` entries that launch, stop or archive an experiment, or grant a role, say so. */
export function activityVerb(entry: Pick<ActivityEntry, 'activity' | 'scope' | 'detail'>): string {
  if (entry.activity !== 'updated') return entry.activity;
  const changes = entry.detail.changes ?? [];
  const change = (field: string) => changes.find((c) => c.field === field);
  if (entry.scope === 'Experiment') {
    if (change('start_date')?.action === 'created') return 'launched';
    if (change('end_date')?.action === 'created') return 'stopped';
    if (change('archived')?.after === true) return 'archived';
  }
  if (changes.length === 1 && change('role_access'))
    return change('role_access')!.action === 'deleted' ? 'revoked a role on' : 'granted a role on';
  if (entry.scope === 'FeatureFlag' && changes.length === 1 && change('active'))
    return change('active')!.after ? 'turned on' : 'turned off';
  return 'updated';
}

const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago" (or "now") from an ISO time. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? UNITS[UNITS.length - 1];
  return relative.format(Math.round(seconds / size), unit);
}

/** Who made a change: their name and e-mail, or that they are gone. */
function who(user: ActivityEntry['user']): string {
  if (!user) return 'someone no longer here';
  return user.firstName ? `${user.firstName} (${user.email})` : user.email;
}

/** A value readable as text: strings as they are, a role grant by its role's name, other JSON pretty-printed. */
function text(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'role_name' in value)
    return `role ${String((value as { role_name: unknown }).role_name)}`;
  return JSON.stringify(value, null, 2);
}

const LONG_LINES = 4;
const LONG_CHARS = 160;

/** One side of a change: short values inline, long ones folded under "Show N lines". */
function Value({ value }: { value: unknown }) {
  const shown = text(value);
  const lines = shown.split('\n').length;
  if (lines <= LONG_LINES && shown.length <= LONG_CHARS) return <code className="activity-value">{shown}</code>;
  return (
    <details className="activity-long">
      <summary>
        Show {lines} {lines === 1 ? 'line' : 'lines'}
      </summary>
      <pre className="activity-value">{shown}</pre>
    </details>
  );
}

/** A change list as a table: field, before, after. */
function Changes({ changes }: { changes: NonNullable<ActivityEntry['detail']['changes']> }) {
  return (
    <table className="activity-changes">
      <caption className="visually-hidden">Changes</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change, index) => (
          <tr key={index}>
            <td>{change.field}</td>
            <td>
              <Value value={change.before} />
            </td>
            <td>
              <Value value={change.after} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Activity entries, newest first: who, what, when (relative, with the exact time in `<time>`) and
 * the diff. Props: `entries` (read with the `ConsoleActivityEntry` fragment); `showItem` names and
 * links each entry's flag, experiment or cohort (leave it off where the page is that item).
 */
export function ActivityEntries({ entries, showItem = false }: { entries: ActivityEntry[]; showItem?: boolean }) {
  return (
    <ol className="activity">
      {entries.map((entry) => {
        const scope = SCOPE_WORDS[entry.scope];
        return (
          <li key={entry.id} className="activity-entry">
            <p className="activity-line">
              <span className="activity-who">{who(entry.user)}</span> <strong>{activityVerb(entry)}</strong>{' '}
              {showItem ? (
                <>
                  {scope.noun} <Link to={`${scope.path}/${entry.itemId}`}>{entry.detail.name || `#${entry.itemId}`}</Link>{' '}
                </>
              ) : null}
              <time dateTime={entry.createdAt} title={exact.format(new Date(entry.createdAt))}>
                {ago(entry.createdAt)}
              </time>{' '}
              <span className="muted">({exact.format(new Date(entry.createdAt))})</span>
            </p>
            {entry.detail.changes?.length ? <Changes changes={entry.detail.changes} /> : null}
          </li>
        );
      })}
    </ol>
  );
}

/** One item's history tab (a flag's, an experiment's): its entries, ten a page, or why they could not be read. */
export function ItemHistory({
  error,
  activity,
  page,
  pageSize,
  onPage,
}: {
  error: unknown;
  activity: { totalCount: number; results: ActivityEntry[] } | undefined;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}) {
  if (error) return <ErrorMessage error={error} title="The history could not be loaded." />;
  if (!activity) return <p className="loading">Loading history…</p>;
  return (
    <div>
      <ActivityEntries entries={activity.results} />
      {activity.results.length === 0 ? <p>No history yet.</p> : null}
      <Pager label="History pages" page={page} pages={Math.max(1, Math.ceil(activity.totalCount / pageSize))} onPage={onPage} />
    </div>
  );
}
