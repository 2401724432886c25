import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RATE_LIMIT_DEFAULTS } from '../src/config';
import type { World } from './helpers/factories';
import { startTestApp, type TestApp } from './helpers/test-app';

/**
 * The worked examples of docs/experiments.md §7 and docs/experiment-results.md ("Worked example: send
 * events and read the results") run as written, so they cannot rot: their code blocks are taken
 * from the pages, in order, and run against the service listening on a port, with the default rate
 * limits a new install has. `sh` blocks run in one bash session (`set -euo pipefail`, so any failed
 * curl fails the test), `js` blocks with node as an ES module beside the installed posthog-node,
 * and a `text` block is what the block before it prints, exactly. The first block sets the four
 * variables by hand (from `cli bootstrap`); the test sets them instead.
 */
// @slow: 400 users through posthog-node, one flag evaluation each.
jest.setTimeout(120_000);

const root = path.resolve(__dirname, '..');
const PAGES = ['docs/experiments.md', 'docs/experiment-results.md'];
const SETUP = /^export FLAGSHIP=http:\/\/127\.0\.0\.1:8000 KEY=phx_… PROJECT=1 TOKEN=phc_…$/;

interface Block {
  where: string;
  language: string;
  code: string;
}

function blocksOf(page: string): Block[] {
  const text = readFileSync(path.join(root, page), 'utf8');
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    where: `${page}:${text.slice(0, match.index).split('\n').length}`,
    language: match[1],
    code: match[2],
  }));
}

/** One bash script of every block that runs, each output preceded by a marker line naming the block. */
function script(blocks: Block[]): string {
  const lines = ['set -euo pipefail'];
  blocks.forEach((block, index) => {
    if (block.language === 'text') return;
    lines.push(`printf '\\n@@@ %s\\n' ${index}`);
    if (block.language === 'sh') lines.push(block.code);
    else if (block.language === 'js') lines.push(`node --input-type=module <<'DOCS_EXAMPLE_JS'\n${block.code}DOCS_EXAMPLE_JS`);
    else throw new Error(`${block.where}: a \`${block.language}\` block; the examples hold sh, js and text blocks only`);
  });
  return lines.join('\n');
}

let app: TestApp;
let world: World;

beforeAll(async () => {
  // The examples stamp times with `date` and posthog-node: the app's clock runs with the system's.
  app = await startTestApp({ rateLimit: RATE_LIMIT_DEFAULTS, checkContract: false, runningClock: true });
  world = await app.factories.world();
});
afterAll(() => app?.close());

it('runs the experiment pages’ worked examples: create, launch, send events with posthog-node, read results, stop', async () => {
  const [setup, ...blocks] = PAGES.flatMap(blocksOf);
  expect([setup.where, setup.language, SETUP.test(setup.code.trim())]).toEqual([setup.where, 'sh', true]);
  expect(blocks.map((block) => block.language)).toEqual(['sh', 'sh', 'js', 'sh', 'text', 'sh']);

  const env = {
    ...process.env,
    FLAGSHIP: app.baseUrl,
    KEY: world.owner.key,
    PROJECT: String(world.project.id),
    TOKEN: world.project.apiToken,
  };
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile('bash', ['-c', script(blocks)], { cwd: root, env, maxBuffer: 16 * 1024 * 1024 }, (error, out, err) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out, stderr: err }),
    ),
  );
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  const outputs = new Map(
    stdout
      .split(/^@@@ /m)
      .slice(1)
      .map((part) => [Number(part.slice(0, part.indexOf('\n'))), part.slice(part.indexOf('\n') + 1).trim()]),
  );
  // What each block printed, and what the page says it prints.
  expect(outputs.get(0)).toMatch(/^experiment \d+$/);
  expect(outputs.get(1)).toMatch(/^New checkout: started \d{4}-\d\d-\d\dT[\d:.]+Z, flag active: true$/);
  expect(outputs.get(2)).toMatch(/^sent events for 400 users, \d+ purchases$/);
  expect(outputs.get(3)).toBe(blocks[4].code.trim());
  expect(outputs.get(5)).toMatch(/^ended \d{4}-\d\d-\d\dT[\d:.]+Z$/);

  // The service holds what the example made.
  const id = Number(outputs.get(0)!.split(' ')[1]);
  const experiment = await app.request(`/api/projects/${world.project.id}/experiments/${id}/`, { key: world.owner.key });
  expect(experiment.body).toMatchObject({
    name: 'New checkout',
    feature_flag_key: 'new-checkout-experiment',
    feature_flag: { active: true },
    filters: { insight: 'FUNNELS' },
  });
  expect(experiment.body.end_date).not.toBeNull();
  const exposures = await app.request(`/api/projects/${world.project.id}/events/?event=$feature_flag_called&limit=1000`, {
    key: world.owner.key,
  });
  expect(exposures.body.results).toHaveLength(400);
});
