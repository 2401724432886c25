import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A clone of the repository alone must work: no file of it may point outside the repository (a
 * sibling checkout, this machine's directories, someone's home), and every `docs/…` page a file
 * cites must exist. Files are what git tracks plus new files it would track (not ignored ones).
 */
const root = path.resolve(__dirname, '..');

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file && existsSync(path.join(root, file)))
  .filter((file) => !/\.(png|jpe?g|gif|ico|woff2?|gz|wasm)$/.test(file) && file !== 'package-lock.json');

/** Paths that leave the repository. Written split so this file does not match itself. */
const OUTSIDE: Array<[RegExp, string]> = [
  [new RegExp(['\\.\\./', 'shared\\b'].join('')), 'a sibling directory outside the repository'],
  [new RegExp(['(^|[^\\w.])/', 'work/'].join('')), "this machine's working directory"],
  [new RegExp(['(^|[^\\w.])/', '(home|Users)/[A-Za-z0-9_.-]+/'].join('')), 'a home directory'],
  [new RegExp(['(^|[\\s\'"`(=])', '~/[A-Za-z0-9_.-]'].join('')), 'a home directory'],
  [new RegExp(['[A-Za-z]:', '\\\\+Users\\\\+'].join('')), 'a home directory'],
];

/** `docs/<page>.md` as cited anywhere, and the page's file. */
const DOC_CITATION = /(?<![\w/.-])docs\/([a-z0-9-]+\.md)/g;

function problems(check: (line: string) => string | null): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    if (text.includes('\u0000')) continue;
    text.split('\n').forEach((line, index) => {
      const problem = check(line);
      if (problem) found.push(`${file}:${index + 1}: ${problem}: ${line.trim().slice(0, 160)}`);
    });
  }
  return found;
}

describe('the repository stands alone', () => {
  it('lists its files through git', () => {
    expect(files).toContain('package.json');
    expect(files).toContain('test/repository.test.ts');
  });

  it('refers to no path outside the repository', () => {
    const found = problems((line) => OUTSIDE.find(([pattern]) => pattern.test(line))?.[1] ?? null);
    if (found.length) throw new Error(`Files refer to paths outside the repository; cite docs/<page>.md instead:\n${found.join('\n')}`);
  });

  it('cites only docs pages that exist', () => {
    const found = problems((line) => {
      const missing = [...line.matchAll(DOC_CITATION)].map(([, page]) => page).filter((page) => !existsSync(path.join(root, 'docs', page)));
      return missing.length ? `no docs/${missing.join(', docs/')}` : null;
    });
    if (found.length) throw new Error(`Files cite docs pages that do not exist:\n${found.join('\n')}`);
  });
});
