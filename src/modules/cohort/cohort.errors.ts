import { fieldErrors, ValidationError } from '../../errors';
import { pyRepr } from '../../validation/python';
import { SATURATED_SIZE } from '../../evaluation/cohort-expansion';

/** The cohort messages of docs/cohorts.md. */
export const cohortErrors = {
  invalidFilters: () => fieldErrors.invalidInput('Invalid cohort filters.', 'filters'),
  doesNotExist: (value: unknown) =>
    new ValidationError('cohort_does_not_exist', `Cohort with id ${pyRepr(value)} does not exist`, 'filters'),
  circular: () => fieldErrors.invalidInput('Cohorts cannot reference themselves, directly or through other cohorts.', 'filters'),
  chainTooLong: (max: number) => fieldErrors.invalidInput(`Cohorts can reference each other at most ${max} levels deep.`, 'filters'),
  expandsTooFar: (name: string, size: number, max: number) =>
    fieldErrors.invalidInput(
      `Cohort '${name}' expands to ${size >= SATURATED_SIZE ? `more than ${SATURATED_SIZE}` : size} conditions; at most ${max} are allowed.`,
      'filters',
    ),
  isStaticImmutable: () => fieldErrors.invalidInput('is_static cannot be changed.', 'is_static'),
  invalidDistinctIds: () => fieldErrors.invalidInput('distinct_ids must be a non-empty list of strings.', 'distinct_ids'),
  notStatic: () => fieldErrors.invalidInput('Persons can only be added to a static cohort.'),
  deleted: () => fieldErrors.invalidInput('Cannot add persons to a deleted cohort.'),
};
