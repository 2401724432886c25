/**
 * Text a user stored (names, keys, tags, values), isolated from the console's own words around it:
 * a right-to-left override inside cannot reorder what follows ("(just now)" read backwards).
 */
export function Stored({ text }: { text: string }) {
  return <bdi>{text}</bdi>;
}

/** Stored texts as a list, each isolated from the others; `after` (the console's words) may follow each. */
export function StoredList({ items, after, empty = '' }: { items: readonly string[]; after?: (index: number) => string; empty?: string }) {
  if (items.length === 0) return <>{empty}</>;
  return (
    <>
      {items.map((item, index) => (
        <span key={index}>
          {index > 0 ? ', ' : null}
          <Stored text={item} />
          {after ? ` ${after(index)}` : null}
        </span>
      ))}
    </>
  );
}
