import { cohortIdOfValue, isPropertyGroup, type CohortDefinitions, type PropertyGroup } from './cohort-match';
import type { PropertyFilter } from './property-match';

/**
 * SPEC-GAP: a cohort may stand for at most 10,000 conditions once every reference to another
 * cohort is inlined (docs/cohorts.md §2). Saving a cohort past it is refused; cohorts stored past it
 * anyway (before the limit, or by hand) are never inlined: SQL narrows nothing for them and the
 * matcher, which memoises each cohort per subject, decides. 10,000 leaves keep a count's statement
 * under about half a megabyte and an SDK's local evaluation (posthog-node expands references without
 * memoising) under a few milliseconds, while leaving room for any hand-written definition.
 */
export const MAX_EXPANDED_CONDITIONS = 10_000;

/** Sizes saturate here, so a hand-made chain of any length stays a finite, comparable number. */
export const SATURATED_SIZE = Number.MAX_SAFE_INTEGER;

/** What a cohort stands for once its references are inlined. */
export interface Expanded {
  /** Leaves: person, behavioural, static-cohort and unknown-cohort leaves count 1, a dynamic reference its cohort's size. */
  size: number;
  /** Nesting of groups and references down to the deepest leaf. */
  depth: number;
  /** Whether its references lead round a cycle (refused on save, possible by hand). */
  cyclic: boolean;
}

const LEAF: Expanded = { size: 1, depth: 0, cyclic: false };

/** A group's own leaves: how many are not references, how deep the deepest sits, and each reference with its depth. */
function leavesOf(group: PropertyGroup): { plain: number; plainDepth: number; references: Array<{ id: number; depth: number }> } {
  let plain = 0;
  let plainDepth = 0;
  const references: Array<{ id: number; depth: number }> = [];
  const pending: Array<{ value: unknown; depth: number }> = [{ value: group, depth: 0 }];
  while (pending.length) {
    const { value, depth } = pending.pop()!;
    if (isPropertyGroup(value)) {
      for (const item of value.values) pending.push({ value: item, depth: depth + 1 });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const id = (value as PropertyFilter).type === 'cohort' ? cohortIdOfValue((value as PropertyFilter).value) : null;
    if (id !== null) references.push({ id, depth });
    else {
      plain += 1;
      plainDepth = Math.max(plainDepth, depth);
    }
  }
  return { plain, plainDepth, references };
}

interface Frame {
  id: number;
  references: Array<{ id: number; depth: number }>;
  next: number;
  size: number;
  depth: number;
  cyclic: boolean;
}

/**
 * Each cohort's expansion, measured once and remembered (by id) for as long as the definitions it
 * was built over: linear in the definitions, whatever the references multiply to. Iterative, so a
 * hand-made chain of any length cannot exhaust the stack.
 */
export class CohortExpansion {
  readonly #known = new Map<number, Expanded>();
  /** How many cohorts have been measured: each at most once (the tests read it). */
  measured = 0;

  constructor(private readonly definitions: CohortDefinitions) {}

  /** `id`'s expansion; a static, unknown or property-less cohort is one leaf. */
  of(id: number): Expanded {
    const known = this.#known.get(id);
    if (known) return known;
    const open = new Set<number>();
    const stack: Frame[] = [];
    const enter = (cohortId: number): Expanded | null => {
      const cohort = this.definitions.get(cohortId);
      if (!cohort || cohort.isStatic || !isPropertyGroup(cohort.properties)) {
        this.#known.set(cohortId, LEAF);
        return LEAF;
      }
      const { plain, plainDepth, references } = leavesOf(cohort.properties);
      open.add(cohortId);
      stack.push({ id: cohortId, references, next: 0, size: plain, depth: plainDepth, cyclic: false });
      return null;
    };
    if (enter(id)) return LEAF;
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.next < top.references.length) {
        const reference = top.references[top.next];
        const child = this.#known.get(reference.id);
        if (child) {
          top.size = Math.min(SATURATED_SIZE, top.size + child.size);
          top.depth = Math.max(top.depth, reference.depth + child.depth);
          top.cyclic ||= child.cyclic;
          top.next += 1;
        } else if (open.has(reference.id)) {
          top.size = Math.min(SATURATED_SIZE, top.size + 1); // round a cycle: "not a member" there
          top.cyclic = true;
          top.next += 1;
        } else {
          enter(reference.id); // measured on the next turn, then added
        }
        continue;
      }
      stack.pop();
      open.delete(top.id);
      this.#known.set(top.id, { size: top.size, depth: top.depth, cyclic: top.cyclic });
      this.measured += 1;
    }
    return this.#known.get(id)!;
  }

  /** Every cohort of the definitions measured now (a cached copy then answers without work). */
  measureAll(): this {
    for (const id of this.definitions.keys()) this.of(id);
    return this;
  }
}
