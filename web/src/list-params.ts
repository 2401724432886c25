import { useSearchParams } from 'react-router';

/**
 * A list's search, filters and page, kept in the URL so a view can be bookmarked: `params` to read,
 * `update` to change some (a value that is empty or one of `defaults` leaves the URL; any change
 * but the page's returns to page 1).
 */
export function useListParams(defaults: readonly string[]) {
  const [params, setParams] = useSearchParams();
  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === '' || defaults.includes(value)) next.delete(name);
      else next.set(name, value);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  const page = Math.max(1, Number(params.get('page')) || 1);
  return { params, update, page };
}
