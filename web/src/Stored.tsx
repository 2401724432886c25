/**
 * Text a user stored (names, keys, tags, values), isolated from the console's own words around it:
 * a right-to-left override inside cannot reorder what follows ("(just now)" read backwards).
 */
export function Stored({ text }: { text: string }) {
  return <bdi>{text}</bdi>;
}

/** Stored texts as a list, each isolated from the others. */
export function StoredList({ items, empty = '' }: { items: readonly string[]; empty?: string }) {
  if (items.length === 0) return <>{empty}</>;
  return (
    <>
      {items.map((item, index) => (
        <span key={index}>
          {index > 0 ? ', ' : null}
          <Stored text={item} />
        </span>
      ))}
    </>
  );
}
