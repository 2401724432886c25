/** The items grouped by key, each group in the items' order (Node 20 has no `Map.groupBy`). */
export function groupBy<K, V>(items: Iterable<V>, key: (item: V) => K): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
