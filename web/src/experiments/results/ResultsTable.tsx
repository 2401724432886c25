import { percent, pValue, rateText, signedPercent, type ResultModel } from './model';

/** The primary metric per variant: one row each, key first, control marked; the frequentist columns on request. */
export function ResultsTable({ model, name, frequentist }: { model: ResultModel; name: string; frequentist: boolean }) {
  const funnel = model.kind === 'funnel';
  const showFrequentist = frequentist && funnel && model.hasFrequentist;
  const interval = (pair: [number, number] | null, format: (x: number) => string) =>
    pair ? `${format(pair[0])} to ${format(pair[1])}` : '—';
  return (
    <div className="table-scroll">
      <table className="results-table">
        <caption>{name}</caption>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col">{funnel ? 'Exposures (entered the funnel)' : 'Exposures'}</th>
            <th scope="col">{funnel ? 'Conversions' : 'Count'}</th>
            <th scope="col">{funnel ? 'Conversion rate' : 'Mean (count per exposure)'}</th>
            <th scope="col">Probability of being best</th>
            <th scope="col">95% credible interval</th>
            {showFrequentist ? (
              <>
                <th scope="col">Lift against control</th>
                <th scope="col">95% confidence interval of the lift</th>
                <th scope="col">p-value</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {model.variants.map((v) => (
            <tr key={v.key} className={v.control ? 'control-row' : undefined}>
              <th scope="row">{v.key}</th>
              <td>{v.exposure}</td>
              <td>{v.value}</td>
              <td>{rateText(model.kind, v.rate)}</td>
              <td>{percent(v.probability)}</td>
              <td>{interval(v.interval, (x) => rateText(model.kind, x))}</td>
              {showFrequentist ? (
                v.control ? (
                  <td colSpan={3} className="muted">
                    Baseline
                  </td>
                ) : (
                  <>
                    <td>{v.frequentist?.relativeLift != null ? signedPercent(v.frequentist.relativeLift) : '—'}</td>
                    <td>{interval(v.frequentist?.interval ?? null, signedPercent)}</td>
                    <td>{v.frequentist ? `${pValue(v.frequentist.pValue)}${v.frequentist.significant ? ' (below 0.05)' : ''}` : '—'}</td>
                  </>
                )
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
