import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';

/**
 * `regex`/`not_regex` in linear time (docs/evaluation.md §4.7): patterns run on RE2 (the re2js port),
 * which never backtracks, so a value costs at most (program size × value length) steps whatever the
 * pattern. A pattern must also compile as ECMAScript, the dialect posthog-node evaluates locally, so
 * every pattern this service accepts means the same to both (save for the few escapes the two
 * dialects read differently, docs/evaluation.md §4.7). SPEC-GAP: the bounds below are this
 * service's; PostHog documents none.
 */

/** Longest pattern saved or evaluated (characters). */
export const MAX_PATTERN_LENGTH = 1000;
/** Largest compiled program (RE2's own measure of a pattern's cost, about one unit per operation). */
export const MAX_PROGRAM_SIZE = 1000;
/** Longest value a pattern is matched against (characters); a longer one is not decided. */
export const MAX_MATCHED_LENGTH = 10_000;
/**
 * Most (program size × value length) one match may cost: 90–130 ms at RE2's slowest (its NFA, when
 * values built to defeat its DFA cache make it give up: ~100 ns a step) on this project's 2-core
 * machine; ordinary patterns and values take ~2 ns a step (a URL pattern on a URL: ~10 µs). A
 * simple pattern (size ≤ 100) takes any value up to MAX_MATCHED_LENGTH; the most complex one values
 * up to 1,000 characters.
 */
export const MATCH_BUDGET = 1_000_000;

/**
 * What one subject's evaluation may spend matching patterns: 50 ms and 500,000 steps (program size
 * × value length) both spent, then its next match throws MatchBudgetSpent. A flag of 250
 * conditions built to take RE2's slow path (~100 ns a step) otherwise held the event loop for 30 s
 * with one public-token request. Time, because a step costs fifty times more on that path than on
 * the fast one; steps too, so that a pause of the process (garbage collection, the machine) inside
 * ordinary matching cannot spend it: 1,000 URL patterns on 170-character values are ~8 million
 * steps but take ~11 ms here.
 */
export const EVALUATION_MATCH_MS = 50;
export const EVALUATION_MATCH_STEPS = 500_000;

/** The evaluation's matching budget is spent: the flag being evaluated cannot be decided. */
export class MatchBudgetSpent extends Error {
  constructor() {
    super(`regular expressions took more than ${EVALUATION_MATCH_MS} ms of this evaluation`);
    this.name = 'MatchBudgetSpent';
  }
}

/** The running evaluation's matching so far, or null outside withinMatchBudget. */
let spent: { ms: number; steps: number } | null = null;

/**
 * Runs a synchronous evaluation under one matching budget (nested calls share the outer one).
 * Synchronous on purpose: no other request's matches can run inside it.
 */
export function withinMatchBudget<T>(evaluate: () => T): T {
  if (spent) return evaluate();
  spent = { ms: 0, steps: 0 };
  try {
    return evaluate();
  } finally {
    spent = null;
  }
}

/** Why a pattern cannot be evaluated, and which dialect refused it. */
export interface RegexProblem {
  dialect: 'ECMAScript' | 'RE2';
  reason: string;
}

type Compiled = { pattern: RE2JS; size: number } | { problem: RegexProblem };

const re2Problem = (reason: string): { problem: RegexProblem } => ({ problem: { dialect: 'RE2', reason } });

// Compiling costs up to a few milliseconds; stored patterns repeat on every evaluation.
const compiled = new LRUCache<string, Compiled>({ max: 500 });

function compile(source: string): Compiled {
  const known = compiled.get(source);
  if (known) return known;
  const result = compileUncached(source);
  compiled.set(source, result);
  return result;
}

function compileUncached(source: string): Compiled {
  if (source.length > MAX_PATTERN_LENGTH) return re2Problem(`longer than ${MAX_PATTERN_LENGTH} characters`);
  try {
    new RegExp(source);
  } catch (error) {
    return { problem: { dialect: 'ECMAScript', reason: (error as Error).message } };
  }
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(source);
  } catch (error) {
    return re2Problem((error as Error).message.replace(/^error parsing regexp: /i, ''));
  }
  const size = pattern.programSize();
  if (size > MAX_PROGRAM_SIZE) return re2Problem(`too complex: its program size is ${size}, at most ${MAX_PROGRAM_SIZE}`);
  return { pattern, size };
}

/** Why `source` cannot be evaluated (syntax in either dialect, length, complexity), or null when it can. */
export function regexProblem(source: string): RegexProblem | null {
  const result = compile(source);
  return 'problem' in result ? result.problem : null;
}

/**
 * Whether `source` matches somewhere in `value`; null when it cannot be decided: the pattern does
 * not compile or is out of bounds, or the value is too long for it (MAX_MATCHED_LENGTH, MATCH_BUDGET).
 * Inside withinMatchBudget, throws MatchBudgetSpent once the evaluation has spent its matching budget.
 */
export function regexTest(source: string, value: string): boolean | null {
  const result = compile(source);
  if ('problem' in result) return null;
  if (value.length > MAX_MATCHED_LENGTH || result.size * value.length > MATCH_BUDGET) return null;
  if (!spent) return result.pattern.test(value);
  if (spent.ms >= EVALUATION_MATCH_MS && spent.steps >= EVALUATION_MATCH_STEPS) throw new MatchBudgetSpent();
  const started = performance.now();
  try {
    return result.pattern.test(value);
  } finally {
    spent.ms += performance.now() - started;
    spent.steps += result.size * value.length;
  }
}
