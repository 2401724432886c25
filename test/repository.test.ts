import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { commands } from '../src/cli/commands';

/**
 * A clone of the repository alone must work and explain itself:
 *  - no file may point outside the repository (a sibling checkout, this machine's directories,
 *    someone's home), whether as a `../` path that climbs out, as `path.join`/`path.resolve`
 *    segments, or by naming a directory that only exists beside it;
 *  - every `docs/…` page a file cites must exist, and so must every numbered section, heading link
 *    (`rest-api.md#42-…`) and baseline decision ("decision 5") it cites;
 *  - numbered acceptance lists live outside the repository, so nothing may cite them.
 * Files are what git tracks plus new files it would track (not ignored ones).
 */
const root = path.resolve(__dirname, '..');
const SELF = 'test/repository.test.ts';

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  // Regular files only: a worktree's node_modules may be an untracked symlink to a directory.
  .filter((file) => file && existsSync(path.join(root, file)) && statSync(path.join(root, file)).isFile())
  .filter((file) => !/\.(png|jpe?g|gif|ico|woff2?|gz|wasm)$/.test(file) && file !== 'package-lock.json');

// ---------------------------------------------------------------------------------------------
// Paths outside the repository
// ---------------------------------------------------------------------------------------------

/** Directories compiled into dist/ (tsconfig.build.json, bench/tsconfig.json): their code also runs one level deeper. */
const COMPILED = /^(src|bench|scripts|migrations)\//;

/** How many `..` a path written in `file` may climb before it leaves the repository. */
function headroom(file: string): number {
  return file.split('/').length - 1 + (COMPILED.test(file) && /\.[cm]?[jt]s$/.test(file) ? 1 : 0);
}

/** Directories that exist only beside the repository, never in it. */
const SIBLING = /^shared$/i;
const SIBLING_CHILD = /^(contract|spec|guide)$/i;

/** URLs are not file paths; what is under node_modules belongs to the installed packages. */
const stripUrls = (line: string) => line.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"`)\]>]*/gi, ' ');

/** Segments of a relative path after its leading `..`s: what a path climbing `ups` levels lands on. */
function landsOutside(ups: number, rest: string[], file: string, fromRoot = false): string | null {
  if (rest[0] === 'node_modules') return null;
  if (rest[0] !== undefined && SIBLING.test(rest[0])) return 'a sibling directory outside the repository';
  if (ups > (fromRoot ? 0 : headroom(file))) return 'a relative path that climbs out of the repository';
  return null;
}

/** Line patterns, each with what it means. */
const LINE_PATTERNS: Array<[RegExp, string]> = [
  [/(?<![\w.-])shared[\\/]+(?:contract|spec|guide)\b/i, 'a directory outside the repository (shared/…)'],
  [/(['"`])shared\1\s*,\s*(['"`])(?:contract|spec|guide)\2/i, 'path segments naming a directory outside the repository'],
  [/(['"`])\.\.\1\s*,\s*(?:(['"`])\.\.\2\s*,\s*)*(['"`])shared\3/i, 'path segments naming a sibling directory'],
  [/(?:^|[^\w.])\/work\//, "this machine's working directory"],
  [/(?:^|[^\w.])\/(?:home|Users)\/[A-Za-z0-9_.-]+\//, 'a home directory'],
  [/(?:^|[\s'"`(=])~\/[A-Za-z0-9_.-]/, 'a home directory'],
  [/[A-Za-z]:\\+(?:Users|work)\\+/i, 'a home directory'],
];

/** `../`, `..\`, `..\\` chains, as written in text or string literals. */
const UP_CHAIN = /(?<![\w.])((?:\.\.(?:\\+|\/))+)([\w.-]*)/g;

/** Why `line` (of `file`) refers to a path outside the repository, or null. */
function outsideReference(line: string, file: string): string | null {
  const text = stripUrls(line);
  for (const [pattern, reason] of LINE_PATTERNS) if (pattern.test(text)) return reason;
  for (const [, chain, next] of text.matchAll(UP_CHAIN)) {
    // A chain's last `..` may have no separator after it: count it too.
    const ups = chain.split('..').length - 1 + (next === '..' ? 1 : 0);
    const found = landsOutside(ups, next && next !== '..' ? [next] : [], file);
    if (found) return found;
  }
  return null;
}

/** The `path.join(…)`/`path.resolve(…)` calls of a file's text (possibly over several lines), as [line, arguments]. */
function pathCalls(text: string): Array<[number, string]> {
  const calls: Array<[number, string]> = [];
  for (const match of text.matchAll(/\bpath\.(?:join|resolve)\(/g)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (end < text.length && depth > 0) {
      if (text[end] === '(') depth += 1;
      else if (text[end] === ')') depth -= 1;
      end += 1;
    }
    calls.push([text.slice(0, match.index).split('\n').length, text.slice(match.index + match[0].length, end - 1)]);
  }
  return calls;
}

/** Why a `path.join`/`path.resolve` call's arguments lead outside the repository, or null. */
function outsideCall(args: string, file: string): string | null {
  const segments = [...args.matchAll(/(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g)]
    .flatMap(([, , literal]) => literal.split(/[\\/]+/))
    .filter((segment) => segment && segment !== '.');
  for (let i = 0; i + 1 < segments.length; i++) {
    if (SIBLING.test(segments[i]) && SIBLING_CHILD.test(segments[i + 1])) return 'path segments naming a directory outside the repository';
  }
  const base = args.trim().split(/\s*,/)[0];
  const firstDown = segments.findIndex((segment) => segment !== '..');
  const climbed = firstDown === -1 ? segments.length : firstDown;
  const rest = segments.slice(climbed);
  // From __dirname or the repository's root the climb is known; from anything else only where it lands.
  if (base === '__dirname') return landsOutside(climbed, rest, file);
  if (base === 'root') return landsOutside(climbed, rest, file, true);
  return climbed > 0 && rest[0] !== undefined && SIBLING.test(rest[0]) ? 'a sibling directory outside the repository' : null;
}

// ---------------------------------------------------------------------------------------------
// Citations of docs/
// ---------------------------------------------------------------------------------------------

interface DocPage {
  sections: Set<string>;
  anchors: Set<string>;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(headings: string[]): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headings) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** A docs page's numbered sections (`## 4.` → 4, `### 4.2 …` → 4.2, `### 4.2 and 4.3 …` → both) and anchors. */
function readDocPage(text: string): DocPage {
  const headings = [...text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map(([, heading]) => heading);
  const sections = new Set<string>();
  for (const heading of headings) {
    const numbered = /^(\d+(?:\.\d+)*)\.?(?:\s+and\s+(\d+(?:\.\d+)*)\.?)?(?=\s|$)/.exec(heading);
    if (numbered) numbered.slice(1).forEach((number) => number && sections.add(number));
  }
  return { sections, anchors: anchorsOf(headings) };
}

const docPages = new Map<string, DocPage | null>();
function docPage(name: string): DocPage | null {
  if (!docPages.has(name)) {
    const file = path.join(root, 'docs', name);
    docPages.set(name, existsSync(file) ? readDocPage(readFileSync(file, 'utf8')) : null);
  }
  return docPages.get(name) ?? null;
}

/** The baseline decisions of docs/README.md: its numbered list under "Baseline decisions". */
const decisions = (() => {
  const text = readFileSync(path.join(root, 'docs/README.md'), 'utf8');
  const list = text.slice(text.indexOf('## Baseline decisions'));
  return new Set([...list.matchAll(/^(\d+)\. /gm)].map(([, number]) => Number(number)));
})();

/**
 * A page, section, anchor or decision named in a line. Outside docs/ a page is `docs/<page>.md`; in
 * docs/ also `<page>.md`. A `§N` that follows a page (only punctuation, "and", "or", "to" or other
 * `§`s between) is that page's. A bare `§N` is, in docs/, the page it is written in; elsewhere the
 * one page the file cites sections of, and ambiguous (so refused) when the file cites several.
 */
const CITATION =
  /(?<page>(?<![\w/.-])(?:docs\/)?[a-z0-9-]+\.md)(?:#(?<anchor>[\w-]+))?|§(?<section>\d+(?:\.\d+)*)|\bdecisions?\s+(?<decision>\d+)/g;
const BETWEEN = /^[\s`'"*_()[\],;:/&–—-]*(?:(?:and|or|to)[\s`'"*_()[\],;:/&–—-]*)?$/;

type Citation =
  | { kind: 'page'; name: string; written: string; anchor?: string }
  | { kind: 'section'; section: string; page: string | null }
  | { kind: 'decision'; decision: number };

/** The citations of one line of `file`, each section with the page it follows (null: a bare one). */
function citationsIn(line: string, file: string): Citation[] {
  const inDocs = file.startsWith('docs/');
  const found: Citation[] = [];
  let attached: string | null = null;
  let lastEnd = 0;
  const text = stripUrls(line);
  for (const match of text.matchAll(CITATION)) {
    const { page: written, anchor, section, decision } = match.groups!;
    const gap = text.slice(lastEnd, match.index);
    lastEnd = match.index + match[0].length;
    if (written) {
      attached = null;
      // Outside docs/, only `docs/…` is a docs page; in docs/, a bare `x.md` that is not one may be
      // another directory's file (the repository's README.md…) unless it is linked to a heading.
      if (!written.startsWith('docs/') && !inDocs) continue;
      const name = written.replace(/^docs\//, '');
      if (!docPage(name) && !written.startsWith('docs/') && !anchor) continue;
      found.push({ kind: 'page', name, written, anchor });
      // A link's target (`](page.md#…)`) ends a citation: a `§` after it is not that page's.
      if (docPage(name) && !text.slice(0, match.index).endsWith('](')) attached = name;
    } else if (section) {
      if (!attached || !BETWEEN.test(gap)) attached = null;
      found.push({ kind: 'section', section, page: attached ?? (inDocs ? path.basename(file) : null) });
    } else if (decision) {
      attached = null;
      found.push({ kind: 'decision', decision: Number(decision) });
    }
  }
  return found;
}

/** What is wrong with the docs citations of a file's lines, as [line index, problem]. */
function citationProblems(file: string, lines: string[]): Array<[number, string]> {
  const perLine = lines.map((line) => citationsIn(line, file));
  const sectionPages = new Set(perLine.flat().flatMap((c) => (c.kind === 'section' && c.page ? [c.page] : [])));
  const found: Array<[number, string]> = [];
  perLine.forEach((citations, index) => {
    for (const citation of citations) {
      if (citation.kind === 'page') {
        const page = docPage(citation.name);
        if (!page) found.push([index, `no docs/${citation.name}`]);
        else if (citation.anchor && !page.anchors.has(citation.anchor))
          found.push([index, `docs/${citation.name} has no heading #${citation.anchor}`]);
      } else if (citation.kind === 'section') {
        const { section } = citation;
        const name = citation.page ?? (sectionPages.size === 1 ? [...sectionPages][0] : null);
        if (!name) {
          found.push([
            index,
            sectionPages.size
              ? `§${section} is ambiguous here (the file cites sections of ${[...sectionPages].map((p) => `docs/${p}`).join(', ')}): write docs/<page>.md §${section}`
              : `§${section} names no docs page (write docs/<page>.md §${section})`,
          ]);
        } else if (!docPage(name)?.sections.has(section)) found.push([index, `docs/${name} has no §${section}`]);
      } else if (!decisions.has(citation.decision)) found.push([index, `docs/README.md has no decision ${citation.decision}`]);
    }
  });
  return found;
}

// ---------------------------------------------------------------------------------------------
// Other outside material
// ---------------------------------------------------------------------------------------------

/** Numbered acceptance items exist only in documents outside the repository. */
const ACCEPTANCE = /\bacceptance\s+(?:items?\s+|behaviou?rs?\s+)?\d/i;

// ---------------------------------------------------------------------------------------------
// CLI commands named in what people read
// ---------------------------------------------------------------------------------------------

/** The README, docs/, the console and the service's own messages: where a reader learns what to run. */
const READ_BY_PEOPLE = /^(README\.md|docs\/|web\/src\/|src\/)/;
/** A `namespace:verb` of the CLI's namespaces; `project:read` is a key scope and `user:pw@` a URL's credentials. */
const CLI_NAME = /\b(?:users?|keys?|projects?|flags?|organizations?):[a-z][a-z_-]*\b(?!@)/g;
const SCOPE = /:(?:read|write)$/;

function cliNameProblems(file: string, lines: string[]): Array<[number, string]> {
  if (!READ_BY_PEOPLE.test(file)) return [];
  return lines.flatMap((line, index) =>
    [...line.matchAll(CLI_NAME)]
      .map(([name]) => name)
      .filter((name) => !SCOPE.test(name) && !Object.hasOwn(commands, name))
      .map((name): [number, string] => [index, `no CLI command ${name} (the CLI has ${Object.keys(commands).join(', ')})`]),
  );
}

// ---------------------------------------------------------------------------------------------

/** Lines of this file between the markers are the examples below: they mean to be flagged. */
const EXAMPLES_BEGIN = '/* examples: begin */';
const EXAMPLES_END = '/* examples: end */';

function linesOf(file: string): string[] | null {
  const text = readFileSync(path.join(root, file), 'utf8');
  if (text.includes('\u0000')) return null;
  const lines = text.split('\n');
  if (file !== SELF) return lines;
  let skipping = false;
  return lines.map((line) => {
    if (line.includes(EXAMPLES_BEGIN)) skipping = true;
    const kept = skipping ? '' : line;
    if (line.includes(EXAMPLES_END)) skipping = false;
    return kept;
  });
}

function problems(check: (file: string, lines: string[]) => Array<[number, string]>): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = linesOf(file);
    if (!lines) continue;
    for (const [index, problem] of check(file, lines)) found.push(`${file}:${index + 1}: ${problem}: ${lines[index].trim().slice(0, 160)}`);
  }
  return found;
}

function outsideProblems(file: string, lines: string[]): Array<[number, string]> {
  const found: Array<[number, string]> = [];
  lines.forEach((line, index) => {
    const problem = outsideReference(line, file);
    if (problem) found.push([index, problem]);
  });
  if (/\.[cm]?[jt]s$/.test(file)) {
    for (const [line, args] of pathCalls(lines.join('\n'))) {
      const problem = outsideCall(args, file);
      if (problem && !found.some(([index]) => index === line - 1)) found.push([line - 1, problem]);
    }
  }
  return found;
}

describe('the repository stands alone', () => {
  it('lists its files through git', () => {
    expect(files).toContain('package.json');
    expect(files).toContain(SELF);
  });

  it('refers to no path outside the repository', () => {
    const found = problems(outsideProblems);
    if (found.length) throw new Error(`Files refer to paths outside the repository; cite docs/<page>.md instead:\n${found.join('\n')}`);
  });

  it('cites only docs pages, sections, headings and decisions that exist', () => {
    const found = problems(citationProblems);
    if (found.length) throw new Error(`Files cite docs that do not exist:\n${found.join('\n')}`);
  });

  it('names only CLI commands that exist', () => {
    const found = problems(cliNameProblems);
    if (found.length) throw new Error(`Files name CLI commands that do not exist:\n${found.join('\n')}`);
  });

  it('cites no numbered acceptance list (it is not in the repository): say what the behaviour is', () => {
    const found = problems((_file, lines) =>
      lines.flatMap((line, index): Array<[number, string]> => (ACCEPTANCE.test(line) ? [[index, 'an acceptance item']] : [])),
    );
    if (found.length) throw new Error(`Files cite acceptance items of documents outside the repository:\n${found.join('\n')}`);
  });
});

describe('the checks themselves', () => {
  /* examples: begin */
  // The sibling folder the checks refuse, built from parts so that no line spells out its path.
  const SIBLING = ['..', 'shared'].join('/');
  const OUTSIDE: Array<[file: string, line: string, flagged: boolean]> = [
    ['README.md', `See ${SIBLING}/contract/rest-flags.md for details.`, true],
    ['README.md', 'the sibling checkout at ../other-repo/', true],
    ['docs/rest-api.md', `as [the contract](../${SIBLING}/spec/api.md) says`, true],
    ['docs/rest-api.md', `as ${SIBLING}/spec/api.md says`, true],
    ['src/a.ts', '// see shared/contract/rest-flags.md §3', true],
    ['src/a.ts', '// shared/spec/api.md', true],
    ['src/a.ts', '// shared/guide/setup.md', true],
    ['test/a.test.ts', String.raw`const spec = '..\shared\spec\api.md';`, true],
    ['test/a.test.ts', String.raw`const spec = "..\\shared\\spec\\api.md";`, true],
    ['test/a.test.ts', String.raw`const spec = "..\\..\\..\\elsewhere";`, true],
    ['test/a.test.ts', "const spec = path.resolve(__dirname, '..', '..', 'shared', 'contract');", true],
    ['test/a.test.ts', "const spec = path.join(root, 'shared', 'spec', 'api.md');", true],
    ['test/a.test.ts', `const spec = readFileSync('../../${SIBLING}/spec/api.md');`, true],
    ['test/a.test.ts', "const out = path.resolve(__dirname, '../../..', 'elsewhere');", true],
    ['.ci/run', 'cp /work/shared/contract/*.md docs/', true],
    ['.ci/run', 'cd /work/main && npm ci', true],
    ['README.md', 'cloned to /home/alice/src/flags', true],
    ['README.md', 'cloned to ~/src/flags', true],
    ['README.md', String.raw`C:\Users\alice\flags`, true],
    // Must not be flagged:
    ['src/a.ts', "import { app } from '../../app';", false],
    ['test/helpers/a.ts', "const root = path.resolve(__dirname, '../..');", false],
    ['docs/rest-api.md', 'the decisions of [README.md](../README.md)', false],
    ['bench/results.ts', "path.resolve(__dirname, '..', '..', 'bench', 'results')", false],
    ['src/openapi/emit.ts', "path.resolve(__dirname, '..', '..', '..', 'schema', 'openapi.json')", false],
    ['test/a.test.ts', "require.resolve('../../../node_modules/graphql/package.json')", false],
    ['README.md', `https://example.com/${SIBLING}/contract/x.md`, false],
    ['README.md', 'https://github.com/someone/shared/spec', false],
    ['README.md', 'src/modules/shared-state.ts and shared/utils.ts', false],
    ['README.md', 'the shared contract of both processes', false],
    ['README.md', 'a network/work/ path and foo/work/bar', false],
    ['README.md', 'the home/ page', false],
    ['test/security/fuzz.test.ts', "fc.constantFrom('..', '../..')", false],
  ];
  const CITATIONS: Array<[file: string, lines: string[], problems: string[]]> = [
    ['src/a.ts', ['// docs/rest-api.md §3.3 and §4.7'], []],
    ['src/a.ts', ['// docs/rest-api.md §3.3, §9.9'], ['docs/rest-api.md has no §9.9']],
    ['src/a.ts', ['// docs/evaluation.md §5.3'], ['docs/evaluation.md has no §5.3']],
    ['src/a.ts', ['/** docs/evaluation.md §4.1 */', '// cohorts (§5.3)'], ['docs/evaluation.md has no §5.3']],
    ['src/a.ts', ['/** docs/evaluation.md §4.1 */', '// rollout (§2)'], []],
    ['src/a.ts', ['// rollout (§2)', '/** docs/evaluation.md §4.1 */'], []],
    [
      'src/a.ts',
      ['/** docs/evaluation.md §4.1, docs/cohorts.md §3 */', '// rollout (§2)'],
      ['§2 is ambiguous here (the file cites sections of docs/evaluation.md, docs/cohorts.md): write docs/<page>.md §2'],
    ],
    ['src/a.ts', ['// as §3 says'], ['§3 names no docs page (write docs/<page>.md §3)']],
    ['src/a.ts', ['/** docs/rest-api.md §1.6, docs/README.md decision 14 */', '// §1.3'], []],
    ['README.md', ['(`docs/rest-api.md` §4.7)'], []],
    ['README.md', ['(`docs/rest-api.md` §4.8)'], ['docs/rest-api.md has no §4.8']],
    ['README.md', ['see docs/rest-api.md §3.1–§3.4 and §4.2/§4.3'], []],
    ['README.md', ['see docs/nowhere.md'], ['no docs/nowhere.md']],
    [
      'README.md',
      ['see [paths](docs/rest-api.md#11-paths) and [x](docs/rest-api.md#99-nothing)'],
      ['docs/rest-api.md has no heading #99-nothing'],
    ],
    ['src/a.ts', ['// docs/README.md decision 5; decision 99'], ['docs/README.md has no decision 99']],
    ['docs/cohorts.md', ['as in §2 and [evaluation.md §4.3](evaluation.md#43-operators); §3 again'], []],
    ['docs/cohorts.md', ['as in §9'], ['docs/cohorts.md has no §9']],
    ['docs/cohorts.md', ['see [evaluation.md §4.3](evaluation.md#43-operators), then §10'], ['docs/cohorts.md has no §10']],
    [
      'docs/cohorts.md',
      ['see [the operators](evaluation.md#43-operators) and [x](evaluation.md#99-none)'],
      ['docs/evaluation.md has no heading #99-none'],
    ],
    ['docs/cohorts.md', ['[evaluation.md §11](evaluation.md)'], ['docs/evaluation.md has no §11']],
    ['docs/README.md', ['[rest-api.md §1.1](rest-api.md#11-paths)'], []],
    ['README.md', ['https://example.com/docs/x.md §4'], ['§4 names no docs page (write docs/<page>.md §4)']],
  ];
  const ACCEPTANCE_LINES: Array<[string, boolean]> = [
    ["it('refuses a stale version (acceptance 34)', …", true],
    ['// acceptance items 48–51', true],
    ["// ingestion's acceptance 20", true],
    ['// acceptance behaviours 3', true],
    ['// user acceptance testing', false],
  ];
  /* examples: end */

  it.each(OUTSIDE)('%s: %s → flagged %s', (file, line, flagged) => {
    const problem =
      outsideReference(line, file) ??
      pathCalls(line)
        .map(([, args]) => outsideCall(args, file))
        .find(Boolean) ??
      null;
    expect({ line, flagged: problem !== null }).toEqual({ line, flagged });
  });

  it.each(CITATIONS)('%s: %j → %j', (file, lines, expected) => {
    expect(citationProblems(file, lines).map(([, problem]) => problem)).toEqual(expected);
  });

  it.each([
    ['docs/console.md', '`keys:create` makes more', ['no CLI command keys:create']],
    ['web/src/SignIn.tsx', 'Create one with the CLI (flag:import)', ['no CLI command flag:import']],
    ['README.md', '`key:create`, `flags:import`, scopes `project:read` and `feature_flag:write`', []],
    ['src/x.ts', 'postgresql://user:pw@host/db', []],
    ['test/x.test.ts', "run(['flags:nothing'])", []],
  ])('CLI names: %s: %j → %j', (file, line, expected) => {
    expect(cliNameProblems(file, [line]).map(([, problem]) => problem.replace(/ \(the CLI has .*\)$/, ''))).toEqual(expected);
  });

  it.each(ACCEPTANCE_LINES)('%s → flagged %s', (line, flagged) => {
    expect(ACCEPTANCE.test(line)).toBe(flagged);
  });

  it('reads numbered headings, including "4.2 and 4.3", and their anchors', () => {
    const page = readDocPage(
      ['# Title', '## 4. Flags', '### 4.2 and 4.3 Usage dashboards', '### 4.4 `GET /x`', '```', '## 9. in code', '```'].join('\n'),
    );
    expect([...page.sections]).toEqual(['4', '4.2', '4.3', '4.4']);
    expect([...page.anchors]).toEqual(['title', '4-flags', '42-and-43-usage-dashboards', '44-get-x']);
  });
});
