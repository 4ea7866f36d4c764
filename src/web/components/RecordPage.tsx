import { useEffect, useState, type ReactNode } from "react";
import {
  useQuery,
  type UseMutationResult,
  type UseQueryOptions,
  type UseQueryResult,
  type QueryKey,
} from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Trash2 } from "lucide-react";
import { deletedMsg } from "../../domain/messages/deleted";
import { uiMsg } from "../../domain/messages/kit";
import { ApiError, errorMessage } from "../api/client";
import { ErrorAlert } from "./ErrorAlert";
import { ActionBar, type Action } from "./actions";
import { useConfirmAction } from "./ConfirmAction";
import { BackLink, DetailSkeleton, RecordStats, type RecordStat } from "./detail";
import { notify, SuccessBanner } from "./overlays";
import { TargetLink } from "./TargetLink";
import { useUndo } from "./undo";
import { DocumentTitle, ErrorState, PageHeader, Spinner } from "./ui";

/** A place in the app to go to. */
export type { Target } from "../lib/target";
import type { Target } from "../lib/target";

/**
 * A kind of record as its screens load it, declared once per feature and shared by its detail and
 * edit screens: the screen family, and what they say when the record cannot be shown.
 */
export type RecordKind = {
  /** The screen family, for document titles ("Skills"). */
  section: string;
  /** The spec's error title ("Error loading skill"). */
  errorTitle: string;
  /** A 404's heading ("Skill not found", or the spec's "Error loading team") and the line under it. */
  notFound: { title: string; message?: string };
  /** Where the error views lead back to (the kind's list). */
  list: Target & { label: string };
};

/**
 * A kind of record whose texts have the usual names (`recordTexts` of src/domain/messages.ts):
 * `loadOneError`, `notFound` with `notFoundText` under it, and `backToList` to `list`.
 */
export function recordKind(
  section: string,
  texts: { loadOneError: string; notFound: string; notFoundText?: string; backToList: string },
  list: Target,
): RecordKind {
  return {
    section,
    errorTitle: texts.loadOneError,
    notFound: { title: texts.notFound, message: texts.notFoundText },
    list: { ...list, label: texts.backToList },
  };
}

/**
 * A record's load states from one place: `loading` (the detail page's skeleton unless given) while
 * pending; the not-found view on a 404 (no Retry: it cannot help); the error view with the server's
 * message and Retry otherwise; each with the way back to the list and a document title ("Customer
 * not found · Customers · Pedal Console"); then `children` with the data. Used by `RecordPage` and
 * by the edit screens' `FormScreen` (SPEC.md §2, §8: failed loads say so with Retry).
 */
export function RecordStates<T>({
  query,
  kind,
  loading,
  children,
}: {
  query: Pick<UseQueryResult<T>, "data" | "error" | "isPending" | "refetch">;
  kind: RecordKind;
  loading?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { data, error, isPending, refetch } = query;
  const { section, errorTitle, notFound, list } = kind;
  const missing = error instanceof ApiError && error.status === 404;
  // The title is set here only while there is no record: with one, the page's header names it
  // ("Summarise tickets · Prompts · Pedal Console"), and a title set here would replace it.
  if (isPending)
    return (
      <>
        <DocumentTitle parts={[section]} />
        {loading ?? <DetailSkeleton />}
      </>
    );
  // Data already shown stays while a background refresh fails.
  if (data !== undefined) return <>{children(data)}</>;
  const title = missing ? notFound.title : errorTitle;
  return (
    <>
      <DocumentTitle parts={[title, section]} />
      <ErrorState
        title={title}
        message={missing ? notFound.message : errorMessage(error) || notFound.message}
        // Retry is for failures that can pass: a record that does not exist will not appear.
        onRetry={missing ? undefined : () => void refetch()}
      >
        <TargetLink {...list} className="btn btn-ghost btn-sm">
          {list.label}
        </TargetLink>
      </ErrorState>
    </>
  );
}

/**
 * The top of a record's page, declared as data: the title (which also names the document), status
 * badge, a subtitle line (cut with an ellipsis, the whole text on hover), the back link (the kind's
 * list unless given), the header's actions (the page's Delete follows them), the cards under the
 * header, and the error of an action run from the header (an Archive the server refused).
 */
export type RecordHeading = {
  title: string;
  badge?: ReactNode;
  subtitle?: string | null;
  back?: Target & { label: string };
  actions?: Array<Action | false | null | undefined>;
  stats?: RecordStat[];
  error?: unknown;
};

/** How a record page deletes its record, and what follows (SPEC.md §4). */
export type RecordRemoval<T, V> = {
  /** The delete mutation (its `meta` drops the record's queries). */
  mutation: UseMutationResult<unknown, Error, V>;
  /** The confirm's title ("Delete Team") and message. */
  title: string;
  message: (record: T) => ReactNode;
  /** The Delete button's and the confirm button's label; "Delete" unless given. */
  label?: string;
  /** The mutation's argument for this record (a cascade flag, say). */
  variables?: (record: T) => V;
  /** "… deleted successfully!", and where the page goes then. */
  done: {
    message: string;
    detail?: string;
    to: (record: T) => Target;
    /**
     * With a delay the page itself says `message` (and `detail`) until it goes (the spec's "after
     * 1.5 s"); without one the message is a notice and the page goes at once.
     */
    afterMs?: number;
  };
  /**
   * When the answer says the record stays (its deletion sent for review): the notice to show
   * instead of `done`'s; the page stays and its record refreshes.
   */
  kept?: (result: unknown) => string | null;
  /**
   * Why the server would refuse to delete this record as it is (what still uses it), or null: the
   * Delete button is then disabled and says why on hover and to screen readers, before any confirm.
   */
  refusal?: (record: T) => string | null;
};

/**
 * The frame of every record's detail page (/customers/{id}, /teams/{id}, /users/{id}, /skills/{id},
 * /prompts/{id}, /platforms/{id}; SPEC.md §2): it loads the record (`query`) and shows its states
 * (`RecordStates`: skeleton, or the `loadingLabel` spinner the spec asks for, e.g. "Loading
 * prompt..."; not found; error with Retry), then the record's `header` (`RecordHeading`) and
 * `children` with the record. With `remove`, it owns the delete: the header's Delete, the confirm,
 * then "… deleted successfully!" and the way on (`RecordRemoval`), never asking the server for the
 * deleted record again.
 */
export function RecordPage<T, V = void, K extends QueryKey = QueryKey>({
  query,
  kind,
  loadingLabel,
  remove,
  header,
  children,
}: {
  query: UseQueryOptions<T, Error, T, K>;
  kind: RecordKind;
  loadingLabel?: string;
  remove?: RecordRemoval<T, V>;
  header: (record: T) => RecordHeading;
  children: (record: T) => ReactNode;
}) {
  const { deleted, confirm } = useRecordRemoval(remove);
  // Once deleted, nothing asks the server for the record again (it would answer 404).
  const result = useQuery({ ...query, enabled: !deleted });
  if (deleted && deleted.afterMs !== undefined && remove) {
    return (
      <div className="mx-auto mt-10 max-w-xl">
        <SuccessBanner message={{ text: remove.done.message, detail: remove.done.detail }} />
      </div>
    );
  }
  if (loadingLabel && result.isPending && !deleted) return <Spinner label={loadingLabel} />;
  const deleteAction: Action | undefined = remove
    ? {
        label: remove.label ?? uiMsg.delete,
        icon: Trash2,
        tone: "danger",
        need: "editor",
        disabledReason: result.data !== undefined ? (remove.refusal?.(result.data) ?? undefined) : undefined,
        onClick: () => result.data !== undefined && confirm.ask(result.data),
      }
    : undefined;
  return (
    <>
      <RecordStates query={result} kind={kind}>
        {(record) => {
          const { actions = [], ...heading } = header(record);
          return (
            <>
              <RecordHeader section={kind.section} back={kind.list} {...heading} actions={[...actions, deleteAction]} />
              {children(record)}
            </>
          );
        }}
      </RecordStates>
      {confirm.dialog}
    </>
  );
}

/**
 * A record page's delete (`RecordRemoval`): the confirm, then the notice with Undo and the way on,
 * at once or after the spec's delay. `deleted` is set from the moment the server said yes.
 */
function useRecordRemoval<T, V>(remove: RecordRemoval<T, V> | undefined) {
  const navigate = useNavigate();
  const offerUndo = useUndo();
  const [deleted, setDeleted] = useState<{ to: Target; afterMs?: number } | null>(null);
  const confirm = useConfirmAction<T, V>({
    mutation: remove?.mutation,
    title: remove?.title ?? "",
    message: (record) => remove?.message(record),
    confirmLabel: remove?.label ?? uiMsg.delete,
    busyLabel: uiMsg.deleting,
    variables: (record) => remove?.variables?.(record) as V,
    done: (record, result) => {
      if (!remove) return;
      const kept = remove.kept?.(result);
      if (kept) {
        notify(kept);
        return;
      }
      const { message, to, afterMs } = remove.done;
      const target = to(record);
      setDeleted({ to: target, afterMs });
      if (afterMs === undefined) {
        offerUndo(message, result);
        void navigate(target);
      } else {
        // The page says the spec's message until it goes; Undo waits in a toast beside it (10 s).
        // Undone before then, the page stays and shows the record again.
        offerUndo(deletedMsg.undoHint, result, { testId: "undo-hint", onRestored: () => setDeleted(null) });
      }
    },
  });

  useEffect(() => {
    if (deleted?.afterMs === undefined) return;
    const timer = setTimeout(() => void navigate(deleted.to), deleted.afterMs);
    return () => clearTimeout(timer);
  }, [deleted, navigate]);
  return { deleted, confirm };
}

/** The top of a record's page: the back link, the `PageHeader`, the error of its last action, the cards. */
function RecordHeader({
  back,
  subtitle,
  actions,
  stats,
  error,
  ...header
}: RecordHeading & { section: string; back: Target & { label: string } }) {
  return (
    <>
      <BackLink {...back} />
      <PageHeader
        {...header}
        subtitle={subtitle ? <span title={subtitle}>{subtitle}</span> : undefined}
        actions={<ActionBar actions={actions ?? []} />}
      />
      <ErrorAlert error={error} className="mb-4" />
      {stats ? <RecordStats stats={stats} /> : null}
    </>
  );
}
