import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBase62 } from '../../auth/personal-api-key';
import { User } from './user.entity';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const UserService = {
  async create(em: EntityManager, input: { email: string; firstName?: string }): Promise<User> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email)) throw new Error(`Not a valid e-mail address: ${input.email}`);
    if (await em.count(User, { email })) throw new Error(`A user with e-mail ${email} already exists.`);
    return em.create(User, { email, firstName: input.firstName?.trim() ?? '', distinctId: randomBase62(40) });
  },
};
