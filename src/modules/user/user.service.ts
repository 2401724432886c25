import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBase62 } from '../../auth/personal-api-key';
import { User } from './user.entity';
import { userErrors } from './user.errors';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const UserService = {
  async create(em: EntityManager, input: { email: string; firstName?: string }): Promise<User> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email)) throw userErrors.invalidEmail(input.email);
    if (await em.count(User, { email })) throw userErrors.emailTaken(email);
    return em.create(User, { email, firstName: input.firstName?.trim() ?? '', distinctId: randomBase62(40) });
  },
};
