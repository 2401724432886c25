import type { MetricKind, MetricModel } from './experiment-model';
import { FieldError } from '../fields';

/** The `<datalist>` every event input points at: the names the project's events carry (`eventNames`). */
export const EVENT_NAMES_LIST = 'experiment-event-names';

/**
 * One metric: a funnel of events (ordered steps, at least two) or a trend of an event (its count per
 * exposed person). Event inputs offer the project's event names.
 */
export function MetricEditor({
  id,
  metric,
  onChange,
  problem,
}: {
  id: string;
  metric: MetricModel;
  onChange: (metric: MetricModel) => void;
  problem?: string;
}) {
  const setKind = (kind: MetricKind) =>
    onChange({
      kind,
      events: kind === 'trend' ? metric.events.slice(0, 1) : metric.events.length >= 2 ? metric.events : [...metric.events, ''].slice(0, 2),
    });
  const setEvent = (index: number, value: string) =>
    onChange({ ...metric, events: metric.events.map((e, i) => (i === index ? value : e)) });
  const errorId = `${id}-error`;
  return (
    <div>
      <fieldset className="metric-kind">
        <legend>Kind</legend>
        <label>
          <input type="radio" name={`${id}-kind`} checked={metric.kind === 'funnel'} onChange={() => setKind('funnel')} /> Funnel of events
        </label>
        <label>
          <input type="radio" name={`${id}-kind`} checked={metric.kind === 'trend'} onChange={() => setKind('trend')} /> Trend of an event
        </label>
      </fieldset>
      {metric.kind === 'funnel' ? (
        <>
          <ol className="metric-steps">
            {metric.events.map((event, index) => (
              <li key={index} className="metric-step">
                <label htmlFor={`${id}-step-${index}`}>Step {index + 1} event</label>
                <input
                  id={`${id}-step-${index}`}
                  list={EVENT_NAMES_LIST}
                  value={event}
                  aria-invalid={problem && !event.trim() ? true : undefined}
                  aria-describedby={errorId}
                  onChange={(e) => setEvent(index, e.target.value)}
                />
                {metric.events.length > 2 ? (
                  <button type="button" onClick={() => onChange({ ...metric, events: metric.events.filter((_, i) => i !== index) })}>
                    Remove step {index + 1}
                  </button>
                ) : null}
              </li>
            ))}
          </ol>
          <button type="button" onClick={() => onChange({ ...metric, events: [...metric.events, ''] })}>
            Add step
          </button>
          <p className="help">A person converts when they reach the last step after the first, in this order, within 14 days.</p>
        </>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-event`}>Event to count</label>
          <input
            id={`${id}-event`}
            list={EVENT_NAMES_LIST}
            value={metric.events[0] ?? ''}
            aria-invalid={problem ? true : undefined}
            aria-describedby={errorId}
            onChange={(e) => onChange({ ...metric, events: [e.target.value] })}
          />
          <p className="help">Compares how often each variant's exposed persons send it.</p>
        </div>
      )}
      <FieldError id={errorId} message={problem} />
    </div>
  );
}
