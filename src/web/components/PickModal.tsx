import { useState, type ReactNode } from "react";
import { useQuery, type QueryKey, type UseMutationResult, type UseQueryOptions } from "@tanstack/react-query";
import { listsMsg } from "../../domain/messages/kit";
import { ErrorAlert } from "./ErrorAlert";
import { EmptyState, SearchInput } from "./inputs";
import { formatCount } from "./ListPagination";
import { Modal } from "./overlays";
import { Truncate } from "./text";
import { Spinner } from "./ui";

/** A modal's state as its page holds it. */
export type ModalState = { open: boolean; onClose: () => void };

/** A page of offered records as the API answers it. */
type Offered = { items: unknown[]; total: number; total_exact?: boolean };

/** What a row's button does: the record's id (what the mutation takes), its texts, and what follows. */
export type PickAction<I> = {
  id: (item: I) => string;
  label: string;
  /** The label while its action runs (the same unless given), after a spinner unless `spinner` is false. */
  busyLabel?: string;
  spinner?: boolean;
  /** The button's accessible name ("Assign Summarise tickets"). */
  name?: (item: I) => string;
  /** After success, with the answer (an assignment sent for review says so). */
  done: (item: I, result: unknown) => void;
};

/** What a `PickModal` takes: its state, texts, the search query of offered records, the mutation run on one. */
type PickModalProps<P extends Offered, K extends QueryKey> = ModalState & {
  title: string;
  intro?: string;
  /** The search box's placeholder. */
  search: string;
  query: (q: string) => UseQueryOptions<P, Error, P, K>;
  mutation: UseMutationResult<unknown, Error, string>;
  /** The empty state's title for the search text ("" when none). */
  empty: (q: string) => string;
  /** Accessible name of the list ("Available platforms"). */
  label: string;
  /** A row's description, left of its button. */
  row: (item: P["items"][number]) => ReactNode;
  pick: PickAction<P["items"][number]>;
};

/**
 * A modal that offers records to add one at a time (SPEC.md §2: "Assign Platform to Prompt",
 * "Assign Skill to Team", a team's "Add Member", a user's "Add Team"): the error of the last try,
 * an optional `intro` line (cut with an ellipsis, whole on hover), the search box (the server
 * searches, `query`), then a spinner, the load's error, the empty state or the first matches, each
 * row with its button running `mutation` (all disabled while one runs), and "Showing 20 of 57;
 * search to narrow the list." when there are more. Closing it forgets the search and the error.
 */
export function PickModal<P extends Offered, K extends QueryKey>({
  open,
  onClose,
  title,
  intro,
  search,
  query,
  mutation,
  empty,
  label,
  row,
  pick,
}: PickModalProps<P, K>) {
  type I = P["items"][number];
  const [q, setQ] = useState("");
  const [busyId, setBusyId] = useState<string | null>(null);
  const result = useQuery({ ...query(q), enabled: open });
  const { data } = result;
  const close = () => {
    mutation.reset();
    setQ("");
    onClose();
  };
  const run = (item: I) => {
    setBusyId(pick.id(item));
    mutation.mutate(pick.id(item), {
      onSuccess: (result) => pick.done(item, result),
      onSettled: () => setBusyId(null),
    });
  };
  return (
    <Modal open={open} title={title} onClose={close} size="lg">
      <ErrorAlert error={mutation.error} className="mb-3" />
      {intro ? (
        <p className="mb-3 truncate text-sm text-base-content/80" title={intro}>
          {intro}
        </p>
      ) : null}
      <div className="mb-3">
        <SearchInput value={q} onChange={setQ} placeholder={search} />
      </div>
      {result.isPending ? (
        <Spinner />
      ) : result.error ? (
        <ErrorAlert error={result.error} />
      ) : !data || data.items.length === 0 ? (
        <div className="py-8">
          <EmptyState title={empty(q)} />
        </div>
      ) : (
        <PickList<I> items={data.items} label={label} row={row} pick={pick} busyId={busyId} onPick={run} />
      )}
      {data && data.total > data.items.length ? (
        <p className="mt-2 text-xs text-base-content/70">
          {listsMsg.showingFirst(formatCount(data.items.length), formatCount(data.total, data.total_exact ?? true))}
        </p>
      ) : null}
    </Modal>
  );
}

/**
 * The offered records of a `PickModal`, each with its button; every button is disabled while one
 * runs (`busyId`), and the running one shows its busy label.
 */
function PickList<I>({
  items,
  label,
  row,
  pick,
  busyId,
  onPick,
}: {
  items: readonly I[];
  label: string;
  row: (item: I) => ReactNode;
  pick: PickAction<I>;
  busyId: string | null;
  onPick: (item: I) => void;
}) {
  return (
    <ul className="divide-y divide-base-300" aria-label={label}>
      {items.map((item) => {
        const busy = busyId === pick.id(item);
        return (
          <li key={pick.id(item)} className="flex items-center gap-3 py-3">
            <div className="min-w-0 flex-1">{row(item)}</div>
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => onPick(item)}
              disabled={busyId !== null}
              aria-label={pick.name?.(item)}
            >
              {busy && pick.spinner !== false ? (
                <span className="loading loading-spinner loading-xs" aria-hidden />
              ) : null}
              {busy ? (pick.busyLabel ?? pick.label) : pick.label}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** An offered record's description in a `PickModal`: its name and tags (a status, a scope) on one line, its description under them. */
export function PickRow({ name, tags, detail }: { name: string; tags: ReactNode; detail: string | null }) {
  return (
    <>
      <div className="flex min-w-0 items-center gap-2">
        <Truncate text={name} className="font-medium" />
        {tags}
      </div>
      {detail ? (
        <p className="mt-0.5 line-clamp-2 text-sm text-base-content/70" title={detail}>
          {detail}
        </p>
      ) : null}
    </>
  );
}
