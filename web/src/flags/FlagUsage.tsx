import { useId, useState, type ReactNode } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { useConsole } from '../Layout';
import { ErrorMessage } from '../errors';
import { Stored } from '../Stored';
import { UsageChart, type UsageSeries } from './FlagUsageChart';
import './FlagUsage.css';

/** The ranges offered, as `Dashboard.tiles(dateFrom:)` reads them (docs/dashboards.md, "The date range"). */
export const RANGES = [7, 14, 30, 90] as const;
const DEFAULT_RANGE = 30;

const UsageQuery = graphql(`
  query ConsoleFlagUsage($projectId: ID!, $id: Int!, $dateFrom: String!) {
    featureFlag(projectId: $projectId, id: $id) {
      id
      key
      usageDashboardId
      usageDashboard {
        id
        name
        tiles(dateFrom: $dateFrom) {
          id
          insight {
            id
            name
            filters
            result {
              label
              breakdownValue
              days
              data
              count
              aggregatedValue
            }
          }
        }
      }
    }
  }
`);

const GenerateDashboard = graphql(`
  mutation ConsoleGenerateUsageDashboard($projectId: ID!, $id: Int!) {
    generateFeatureFlagUsageDashboard(projectId: $projectId, id: $id) {
      id
      usageDashboardId
    }
  }
`);

type Json = Record<string, unknown>;
type Kind = 'exposures' | 'persons' | 'other';

/** What a tile counts, from its definition: the two base tiles count `$feature_flag_called` events or persons, by value. */
function kindOf(filters: Json): Kind {
  const events = Array.isArray(filters.events) ? (filters.events as Json[]) : [];
  if (events.length !== 1 || events[0].id !== '$feature_flag_called' || !filters.breakdown) return 'other';
  return events[0].math === 'dau' ? 'persons' : 'exposures';
}

const number = (n: number) => n.toLocaleString('en');
const plural = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;

/** The flag's usage dashboard as charts: exposures per day by value and unique persons, over a range the reader picks. */
export function FlagUsage({ flagId, editable }: { flagId: number; editable: boolean }) {
  const { projectId } = useConsole();
  const selectId = useId();
  const [range, setRange] = useState<number>(DEFAULT_RANGE);
  const {
    data: current,
    previousData,
    loading,
    error,
    refetch,
  } = useQuery(UsageQuery, {
    variables: { projectId, id: flagId, dateFrom: `-${range}d` },
    errorPolicy: 'all',
  });
  const [generate, generating] = useMutation(GenerateDashboard);
  // While another range loads, the last one stays on screen (and the range control keeps focus).
  const data = current ?? previousData;

  const rangeControl = (
    <div className="usage-range field">
      <label htmlFor={selectId}>Date range</label>
      <select id={selectId} value={range} onChange={(event) => setRange(Number(event.target.value))} aria-describedby={`${selectId}-help`}>
        {RANGES.map((days) => (
          <option key={days} value={days}>
            Last {days} days
          </option>
        ))}
      </select>
      <p id={`${selectId}-help`} className="help">
        Today and the {range} days before it, in UTC days. The dashboard itself keeps its own range.
      </p>
    </div>
  );

  if (!data?.featureFlag) {
    if (error) return <ErrorMessage error={error} title="The usage could not be loaded." />;
    return <p className="loading">Loading usage…</p>;
  }
  const flag = data.featureFlag;

  if (flag.usageDashboardId === null || flag.usageDashboardId === undefined) {
    return (
      <div className="flag-usage">
        <p>This flag has no usage dashboard, so there is nothing to chart.</p>
        {editable ? (
          <>
            <button
              type="button"
              disabled={generating.loading}
              onClick={() =>
                void generate({ variables: { projectId, id: flagId } })
                  .then(() => refetch())
                  .catch(() => undefined)
              }
            >
              Generate usage dashboard
            </button>
            <ErrorMessage error={generating.error} title="No dashboard was made." />
          </>
        ) : (
          <p className="help">Someone who may edit the flag can generate one.</p>
        )}
      </div>
    );
  }

  const dashboard = flag.usageDashboard;
  if (!dashboard) {
    return (
      <div className="flag-usage">
        {rangeControl}
        {error ? (
          <ErrorMessage error={error} title="The usage dashboard could not be loaded." />
        ) : (
          <p role="alert" className="error">
            The flag&apos;s usage dashboard ({flag.usageDashboardId}) was not found in this project.
          </p>
        )}
      </div>
    );
  }

  const tiles = dashboard.tiles.map((tile) => ({
    id: tile.id,
    name: tile.insight.name,
    kind: kindOf(tile.insight.filters as Json),
    series: tile.insight.result as UsageSeries[],
  }));
  const exposures = tiles.find((t) => t.kind === 'exposures');
  const persons = tiles.find((t) => t.kind === 'persons');
  const totalExposures = exposures?.series.reduce((sum, s) => sum + s.count, 0) ?? 0;
  const totalPersons = persons?.series.reduce((sum, s) => sum + s.aggregatedValue, 0) ?? 0;
  const values = exposures?.series.length ?? 0;
  const anyEvents = tiles.some((t) => t.series.some((s) => s.count > 0));
  const over = `over the last ${range} days`;

  return (
    <div className="flag-usage">
      {rangeControl}
      {error ? <ErrorMessage error={error} title="Some of the usage could not be loaded." /> : null}
      <p className="usage-summary" aria-live="polite" aria-busy={loading}>
        {loading && !current
          ? `Loading the last ${range} days…`
          : !anyEvents
            ? null
            : totalExposures === 0
              ? `No exposures ${over}.`
              : `${plural(totalExposures, 'exposure', 'exposures')}, ${plural(totalPersons, 'unique person', 'unique persons')}${
                  values > 1 ? ' (counted per value)' : ''
                } ${over}.`}
      </p>
      {exposures && totalExposures > 0 ? (
        <ul className="usage-values" aria-label="By value">
          {exposures.series.map((s) => {
            const people = persons?.series.find((p) => p.breakdownValue === s.breakdownValue)?.aggregatedValue ?? 0;
            return (
              <li key={s.label}>
                <strong>{s.label}</strong>: {plural(s.count, 'exposure', 'exposures')}, {plural(people, 'person', 'persons')}
              </li>
            );
          })}
        </ul>
      ) : null}
      {!anyEvents ? (
        <div className="usage-empty">
          <p>
            No exposures in the last {range} days. An SDK sends a <code>$feature_flag_called</code> event each time it evaluates{' '}
            <code>{flag.key}</code> for someone (posthog-js and posthog-node do so by default from <code>getFeatureFlag</code> and{' '}
            <code>isFeatureEnabled</code>); the events this service stores are counted here on every read.
          </p>
          <p className="help">
            To try it, capture one:{' '}
            <code>{`POST /i/v0/e/ {"event": "$feature_flag_called", "properties": {"$feature_flag": "${flag.key}", "$feature_flag_response": "true"}, …}`}</code>
            .
          </p>
        </div>
      ) : (
        tiles.map((tile) => <UsageTile key={tile.id} tile={tile} range={range} />)
      )}
    </div>
  );
}

function UsageTile({ tile, range }: { tile: { name: string; kind: Kind; series: UsageSeries[] }; range: number }) {
  const tileName = <Stored text={tile.name} />;
  const [name, unit, description]: [string, string, ReactNode] =
    tile.kind === 'exposures'
      ? [
          'Exposures per day by value',
          'exposures',
          <>How many times SDKs evaluated the flag each day, one line per value they got (the tile &ldquo;{tileName}&rdquo;).</>,
        ]
      : tile.kind === 'persons'
        ? [
            'Unique persons per day by value',
            'persons',
            <>
              How many different persons got each value, per day (the tile &ldquo;{tileName}&rdquo;); a person seen on several days counts
              on each.
            </>,
          ]
        : [tile.name, 'events', <>The tile &ldquo;{tileName}&rdquo;, per day.</>];
  return (
    <section className="usage-tile" aria-label={name}>
      <h2>{name}</h2>
      {tile.series.length === 0 || tile.series.every((s) => s.count === 0) ? (
        <p>No events for this tile in the last {range} days.</p>
      ) : (
        <UsageChart name={name} description={description} series={tile.series} unit={unit} />
      )}
    </section>
  );
}
