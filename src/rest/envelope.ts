import type { Page } from '../pagination';

/** `{count, next, previous, results}` with absolute page URLs (docs/rest-api.md §1.5). */
export function envelope<T>(page: Page<T>, url: URL) {
  const { count, results, limit, offset } = page;
  const pageUrl = (pageOffset: number | null) => {
    const params = new URLSearchParams(url.search);
    params.set('limit', String(limit));
    if (pageOffset === null) params.delete('offset');
    else params.set('offset', String(pageOffset));
    params.sort();
    return `${url.origin}${url.pathname}?${params.toString()}`;
  };
  const next = offset + limit >= count ? null : pageUrl(offset + limit);
  const previous = offset === 0 ? null : pageUrl(offset - limit <= 0 ? null : offset - limit);
  return { count, next, previous, results };
}
