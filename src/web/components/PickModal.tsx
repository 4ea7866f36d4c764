import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { msg } from "../../domain/messages";
import { errorMessage } from "../api/client";
import { EmptyState, SearchInput } from "./inputs";
import { formatCount } from "./ListPagination";
import { Modal } from "./overlays";
import { Spinner } from "./ui";

/**
 * A modal that offers records to add one at a time (SPEC.md §2: "Assign Platform to Prompt",
 * "Assign Skill to Team", a user's "Add Team"): the error of the last try, an optional line, the
 * search box (the server searches), then a spinner, the load's error, the empty state or the
 * first matches, each row with its action button (all disabled while one runs), and "Showing 20
 * of 57; search to narrow the list." when there are more.
 */
export function PickModal<I>({
  open,
  title,
  onClose,
  error,
  intro,
  search,
  q,
  onSearch,
  query,
  empty,
  label,
  rowKey,
  row,
  action,
  busyId,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  /** The last action's error (the server refused it). */
  error: unknown;
  /** A line above the search box. */
  intro?: ReactNode;
  /** The search box's placeholder, its text and its change. */
  search: string;
  q: string;
  onSearch: (q: string) => void;
  query: UseQueryResult<{ items: I[]; total: number; total_exact?: boolean }>;
  /** The empty state's title for the search text ("" when none). */
  empty: (q: string) => string;
  /** Accessible name of the list ("Available platforms"). */
  label: string;
  rowKey: (item: I) => string;
  /** A row's description, left of its button. */
  row: (item: I) => ReactNode;
  /** A row's button: its content (`busy`: its action runs) and accessible name, and what it does. */
  action: { content: (item: I, busy: boolean) => ReactNode; label?: (item: I) => string; run: (item: I) => void };
  /** The key of the row whose action runs. */
  busyId: string | null;
}) {
  const { data } = query;
  return (
    <Modal open={open} title={title} onClose={onClose} size="lg">
      {error ? (
        <div role="alert" className="alert alert-error alert-soft mb-3 text-sm">
          {errorMessage(error)}
        </div>
      ) : null}
      {intro}
      <div className="mb-3">
        <SearchInput value={q} onChange={onSearch} placeholder={search} />
      </div>
      {query.isPending ? (
        <Spinner />
      ) : query.error ? (
        <div role="alert" className="alert alert-error alert-soft text-sm">
          {errorMessage(query.error)}
        </div>
      ) : !data || data.items.length === 0 ? (
        <div className="py-8">
          <EmptyState title={empty(q)} />
        </div>
      ) : (
        <ul className="divide-y divide-base-300" aria-label={label}>
          {data.items.map((item) => (
            <li key={rowKey(item)} className="flex items-center gap-3 py-3">
              <div className="min-w-0 flex-1">{row(item)}</div>
              <button
                type="button"
                className="btn btn-primary btn-sm"
                onClick={() => action.run(item)}
                disabled={busyId !== null}
                aria-label={action.label?.(item)}
              >
                {action.content(item, busyId === rowKey(item))}
              </button>
            </li>
          ))}
        </ul>
      )}
      {data && data.total > data.items.length ? (
        <p className="mt-2 text-xs text-base-content/70">
          {msg.lists.showingFirst(formatCount(data.items.length), formatCount(data.total, data.total_exact ?? true))}
        </p>
      ) : null}
    </Modal>
  );
}
