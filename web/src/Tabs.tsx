import { useRef, type KeyboardEvent, type ReactNode } from 'react';

/** WAI-ARIA tabs: arrow keys, Home and End move between tabs; only the selected one is in the tab order. */
export function Tabs({
  label,
  tabs,
  selected,
  onSelect,
  children,
}: {
  label: string;
  tabs: string[];
  selected: string;
  onSelect: (tab: string) => void;
  children: ReactNode;
}) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const idOf = (tab: string) => tab.toLowerCase().replace(/\s+/g, '-');
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = (moves[event.key] + tabs.length) % tabs.length;
    onSelect(tabs[next]);
    refs.current[next]?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label={label} className="tabs">
        {tabs.map((tab, index) => (
          <button
            key={tab}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${idOf(tab)}`}
            aria-selected={tab === selected}
            aria-controls={`panel-${idOf(tab)}`}
            tabIndex={tab === selected ? 0 : -1}
            onClick={() => onSelect(tab)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${idOf(selected)}`} aria-labelledby={`tab-${idOf(selected)}`} tabIndex={0}>
        {children}
      </div>
    </>
  );
}
