import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/** Observable Plot, loaded with the first chart so pages without charts do not pay for it. */
export type PlotModule = typeof import('@observablehq/plot');

export interface ChartTable {
  columns: string[];
  rows: Array<Array<string | number>>;
}

let plotModule: Promise<PlotModule> | null = null;
const loadPlot = () => (plotModule ??= import('@observablehq/plot'));

/**
 * A chart with what a chart owes a reader who cannot see it: an accessible name (`role="img"`), an
 * optional description, and the same numbers as a table under "Show the numbers". `draw` gets Plot
 * and the width the chart has; the chart is redrawn when the width or the table changes.
 *
 * Plot puts a `<style>` element in each SVG; the console's policy allows no inline styles, so it is
 * removed before the SVG reaches the page, and styles.css carries the equivalent rules (`.chart svg`).
 * Plot also names its mark groups (`<g aria-label="bar">`): inside `role="img"` those names are noise,
 * and ARIA prohibits them on a bare `<g>` (axe: aria-prohibited-attr), so they go too.
 */
export function Chart({
  name,
  description,
  table,
  draw,
  height = 240,
}: {
  name: string;
  description?: ReactNode;
  table: ChartTable;
  draw: (plot: PlotModule, size: { width: number; height: number }) => Element;
  height?: number;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const descriptionId = useId();
  const dataKey = JSON.stringify(table);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = host.current;
    if (!element || width === 0) return;
    let current = true;
    loadPlot()
      .then((plot) => {
        if (!current) return;
        const drawn = draw(plot, { width, height });
        drawn.querySelectorAll('style').forEach((style) => style.remove());
        for (const node of [drawn, ...drawn.querySelectorAll('[aria-label], [aria-description]')]) {
          node.removeAttribute('aria-label');
          node.removeAttribute('aria-description');
        }
        element.replaceChildren(drawn);
      })
      .catch((error: unknown) => setFailed(error instanceof Error ? error.message : String(error)));
    return () => {
      current = false;
    };
    // `draw` is a new function on every render; the table says when what it draws has changed.
  }, [width, height, dataKey]);

  return (
    <figure className="chart">
      <div ref={host} role="img" aria-label={name} aria-describedby={description ? descriptionId : undefined} className="chart-canvas" />
      {description ? (
        <figcaption id={descriptionId} className="help">
          {description}
        </figcaption>
      ) : null}
      {failed ? (
        <p role="alert" className="error">
          The chart could not be drawn ({failed}); the numbers are below.
        </p>
      ) : null}
      <details className="chart-data">
        <summary>Show the numbers</summary>
        <table>
          <caption className="visually-hidden">{`The numbers behind: ${name}`}</caption>
          <thead>
            <tr>
              {table.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, index) => (
              <tr key={index}>
                {row.map((cell, column) =>
                  column === 0 ? (
                    <th key={column} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={column}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
