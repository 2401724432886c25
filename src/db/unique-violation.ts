import { UniqueConstraintViolationException } from '@mikro-orm/core';

/**
 * Runs a write whose uniqueness was checked before it, and turns the unique index's refusal of a
 * concurrent twin into the error the check would have given: two writers racing for one name,
 * key or pair both pass the check, and the index decides which one loses.
 */
export async function refuseUniqueViolation<T>(write: () => Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw refusal();
    throw error;
  }
}
