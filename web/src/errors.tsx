import { CombinedGraphQLErrors } from '@apollo/client/errors';

/** What a refusal says, and where: `fields` by the API's `attr` (`filters`, `key`, …), the rest in `general`. */
export interface Refusal {
  general: string[];
  fields: Record<string, string>;
  /** The server's GraphQL class (`CONFLICT`, `FORBIDDEN`, …) of the first error. */
  code: string | null;
}

export function refusalOf(error: unknown): Refusal {
  const refusal: Refusal = { general: [], fields: {}, code: null };
  if (CombinedGraphQLErrors.is(error)) {
    for (const e of error.errors) {
      const attr = typeof e.extensions?.attr === 'string' ? e.extensions.attr : null;
      refusal.code ??= typeof e.extensions?.code === 'string' ? e.extensions.code : null;
      if (attr && !(attr in refusal.fields)) refusal.fields[attr] = e.message;
      else refusal.general.push(e.message);
    }
  } else if (error instanceof Error) {
    refusal.general.push(`The service could not be reached: ${error.message}`);
  }
  return refusal;
}

/** A refusal as a message in the page (role=alert), never a blank page. */
export function ErrorMessage({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const { general, fields } = refusalOf(error);
  const lines = [...general, ...Object.entries(fields).map(([attr, message]) => `${attr}: ${message}`)];
  return (
    <div role="alert" className="error">
      {title ? <strong>{title} </strong> : null}
      {lines.join(' ')}
    </div>
  );
}
