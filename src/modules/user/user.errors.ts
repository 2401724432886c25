import { fieldErrors } from '../../errors';

/** The user service's messages (the CLI's `bootstrap` and `user:create` show them on standard error). */
export const userErrors = {
  invalidEmail: (email: string) => fieldErrors.invalidInput(`Not a valid e-mail address: ${email}`, 'email'),
  emailTaken: (email: string) =>
    fieldErrors.invalidInput(`A user with e-mail ${email} already exists; key:create --email ${email} makes them another key.`, 'email'),
};
