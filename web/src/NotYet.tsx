/** A section the console does not show yet: it says so, and where to go instead. */
export function NotYet({ what }: { what: string }) {
  return (
    <section aria-labelledby="not-yet">
      <h1 id="not-yet">{what}</h1>
      <p>
        {what} {what === 'This page' ? 'does not exist.' : 'are not in the console yet.'} Use the GraphQL API at{' '}
        <a href="/graphql">/graphql</a> meanwhile.
      </p>
    </section>
  );
}
