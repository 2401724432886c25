/**
 * Previous / Next over server pages, saying where you are ("Page 2 of 5 (93 flags)" when `total`
 * names the count and what is counted).
 */
export function Pager({
  label,
  page,
  pages,
  onPage,
  total,
}: {
  label: string;
  page: number;
  pages: number;
  onPage: (page: number) => void;
  total?: string;
}) {
  return (
    <nav aria-label={label} className="pager">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span aria-live="polite">
        Page {page} of {pages}
        {total ? ` (${total})` : null}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
