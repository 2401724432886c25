import { Link } from 'react-router';
import { exposureEventOf, flagVariantsOf, metricInWords, metricOf, secondaryOf, variantsOf } from './experiment-model';

interface SettingsOf {
  parameters: Record<string, unknown>;
  filters: Record<string, unknown>;
  secondaryMetrics: unknown;
  featureFlag: { id: number; key: string; filters: unknown };
}

/** An experiment's settings in words: the flag and its variants, the metrics, the exposure. */
export function ExperimentSettings({ experiment }: { experiment: SettingsOf }) {
  // The flag is authoritative for the split (docs/experiment-results.md); the experiment's own copy is shown when they differ.
  const flagVariants = flagVariantsOf(experiment.featureFlag.filters);
  const saved = variantsOf(experiment.parameters.feature_flag_variants);
  const secondary = secondaryOf(experiment.secondaryMetrics);
  const exposure = exposureEventOf(experiment.parameters);
  return (
    <div className="experiment-settings">
      <h2>Flag and variants</h2>
      <p>
        Persons are split by the flag <Link to={`/feature-flags/${experiment.featureFlag.id}`}>{experiment.featureFlag.key}</Link>:
      </p>
      <table>
        <caption className="visually-hidden">Variants</caption>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col" className="number">
              Split
            </th>
          </tr>
        </thead>
        <tbody>
          {flagVariants.map((variant) => (
            <tr key={variant.key}>
              <th scope="row">
                {variant.key}
                {variant.key === 'control' ? ' (control)' : ''}
              </th>
              <td className="number">{variant.rollout}%</td>
            </tr>
          ))}
        </tbody>
      </table>
      {saved.length && saved.map((v) => `${v.key}:${v.rollout}`).join() !== flagVariants.map((v) => `${v.key}:${v.rollout}`).join() ? (
        <p className="help">
          The experiment's saved variants differ ({saved.map((v) => `${v.key} ${v.rollout}%`).join(', ')}); the flag's count.
        </p>
      ) : null}
      <h2>Primary metric</h2>
      <p>{metricInWords(metricOf(experiment.filters))}</p>
      <h2>Secondary metrics</h2>
      {secondary.length ? (
        <ul>
          {secondary.map((metric, index) => (
            <li key={index}>
              <strong>{metric.name || `Metric ${index + 1}`}</strong>: {metricInWords(metric)}
            </li>
          ))}
        </ul>
      ) : (
        <p>None.</p>
      )}
      <h2>Exposure</h2>
      <p>
        {exposure ? (
          <>
            A person is exposed when they send <code>{exposure}</code> carrying the flag&apos;s value.
          </>
        ) : (
          <>
            A person is exposed when an SDK evaluates the flag for them (<code>$feature_flag_called</code>).
          </>
        )}
      </p>
    </div>
  );
}
