import { useEffect, useMemo, useState } from "react";
import { Clock, ListChecks, MessageCircle, XCircle } from "lucide-react";
import {
  commenterName,
  commentSortKeys,
  moderationActions,
  type BulkCommentResult,
  type CommentListItem,
} from "../../domain/comments";
import { commentStatuses, type CommentStatus } from "../../domain/enums";
import { commentsMsg } from "../../domain/messages/comments";
import { appMsg, shellMsg } from "../../domain/messages/common";
import { fallbacksMsg } from "../../domain/messages/kit";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { ActionBar } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { columnsFor } from "../components/DataTable";
import { titleCase } from "../components/format";
import { EmptyState } from "../components/inputs";
import { formatCount } from "../components/ListPagination";
import { StatusFilter } from "../components/list-filters";
import { listCards, ListScreen } from "../components/ListScreen";
import { screenTexts } from "../components/list-texts";
import { Modal, notify } from "../components/overlays";
import { Truncate } from "../components/text";
import { column, createdColumn, linkColumn, statusColumn } from "../components/columns";
import { RecordLink } from "../components/RecordLink";
import { CustomerFilter } from "../customers/public";
import { useScreenList } from "../lib/screen-list";
import { CommentRowActions } from "./CommentRowActions";
import { commentListQuery, useBulkComments } from "./queries";

/** A bulk change bigger than this shows a progress bar while the server applies it. */
const progressFrom = 2_000;

type Selection = { ids: Set<string>; allMatching: boolean };
const noSelection = (): Selection => ({ ids: new Set(), allMatching: false });

/**
 * SPEC.md §2 "/comments": cards Total, Pending, Active, Inactive, Rejected over the filtered list;
 * filters Status and Customer (type-ahead); searchable table "All Comments (n)" (User, Skill,
 * Customer, Comment, Status, Created; every column but Comment sorts); the spec's empty, loading
 * and error states. Moderation (beyond the spec): per-row actions, a selection or "all N matching
 * this filter" changed in bulk after a preview of how many change and from which statuses, and
 * "Review pending" (the keyboard queue). Filters, search, sort and page live in the URL.
 */
export default function CommentsPage() {
  const list = useScreenList(commentListQuery, {
    status: "status",
    customer: "customer_id",
  });
  const { data, query } = list;
  // "All Comments (about 40K)" while the total is an estimate (a big search, or one still counting).
  const shownTotal = data ? (data.total_exact ? data.total : formatCount(data.total, false)) : 0;
  const { status, customer } = list.state.filters;
  const canModerate = useCan("editor");
  const [selection, setSelection] = useState<Selection>(noSelection);
  const [pending, setPending] = useState<CommentStatus | null>(null);

  // A new filter or search starts a new selection.
  const filterKey = JSON.stringify([status, customer, list.state.q]);
  useEffect(() => setSelection(noSelection()), [filterKey]);

  const items = data?.items;
  const pageIds = useMemo(() => items?.map((c) => c.comment_id) ?? [], [items]);
  const pageSelected = pageIds.length > 0 && pageIds.every((id) => selection.ids.has(id));
  const selectedCount = selection.allMatching ? (data?.total ?? 0) : selection.ids.size;

  const toggle = (id: string) =>
    setSelection((prev) => {
      const ids = new Set(prev.ids);
      if (ids.has(id)) ids.delete(id);
      else ids.add(id);
      return { ids, allMatching: false };
    });
  const togglePage = () =>
    setSelection((prev) => {
      const ids = new Set(prev.ids);
      for (const id of pageIds)
        if (pageSelected) ids.delete(id);
        else ids.add(id);
      return { ids, allMatching: false };
    });

  const columns = useMemo(() => {
    const col = columnsFor<CommentListItem>();
    return [
      ...(canModerate
        ? [
            col.display({
              id: "select",
              // Named by its text, which phones show (the header row stays there: `phoneHeader`).
              header: () => (
                <label className="inline-flex cursor-pointer items-center gap-2">
                  <input
                    type="checkbox"
                    className="checkbox checkbox-sm"
                    checked={pageSelected}
                    onChange={togglePage}
                  />
                  <span className="sm:sr-only">{commentsMsg.selectPage}</span>
                </label>
              ),
              meta: { label: commentsMsg.selectColumn, phoneHeader: true },
              cell: ({ row }) => (
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  aria-label={commentsMsg.selectRow(commenterName(row.original))}
                  checked={selection.allMatching || selection.ids.has(row.original.comment_id)}
                  onChange={() => toggle(row.original.comment_id)}
                />
              ),
            }),
          ]
        : []),
      linkColumn<CommentListItem>(
        "user",
        "User",
        (c) => ({
          to: "/users/$userId",
          params: { userId: c.user_id },
          text: commenterName(c),
          className: "block max-w-48 truncate font-medium",
        }),
        { primary: true },
      ),
      column<CommentListItem>("skill_name", "Skill", (c) => (
        <RecordLink
          to="/skills/$skillId"
          params={{ skillId: c.skill_id }}
          text={c.skill_name?.trim() || fallbacksMsg.unnamedSkill}
          className="block max-w-48 truncate"
        />
      )),
      column<CommentListItem>("customer_name", "Customer", (c) => (
        <span className="block max-w-48 truncate">{c.customer_name?.trim() || fallbacksMsg.unknownCustomer}</span>
      )),
      column<CommentListItem>("comment_value", "Comment", (c) => <Truncate text={c.comment_value} lines={2} />, {
        grow: true,
      }),
      statusColumn<CommentListItem>("comment", (c) => c.status),
      createdColumn<CommentListItem>(),
      ...(canModerate
        ? [
            col.display({
              id: "actions",
              header: () => <span className="sr-only">Actions</span>,
              meta: { actions: true, label: "Actions" },
              cell: ({ row }) => (
                <CommentRowActions
                  comment={row.original}
                  onDone={(s) => notify(commentsMsg.changed(1, titleCase(s)))}
                />
              ),
            }),
          ]
        : []),
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canModerate, selection, pageSelected, pageIds]);

  return (
    <ListScreen
      list={list}
      {...screenTexts(commentsMsg)}
      actions={
        <ActionBar
          actions={[
            {
              label: commentsMsg.reviewPending,
              icon: ListChecks,
              tone: "primary",
              need: "editor",
              primary: true,
              link: { to: "/comments/review", search: customer ? { customer } : undefined },
            },
          ]}
        />
      }

      cards={[
        listCards.total(MessageCircle),
        { label: "Pending", icon: Clock, value: (s) => s.pending },
        listCards.active,
        listCards.inactive,
        { label: "Rejected", icon: XCircle, value: (s) => s.rejected },
      ]}
      section={{ heading: commentsMsg.tableTitle(shownTotal), headingId: "all-comments" }}
      search={commentsMsg.searchPlaceholder}
      filters={
        <>
          <StatusFilter list={list} all={commentsMsg.allStatuses} options={commentStatuses} />
          <CustomerFilter value={customer} onChange={(v) => list.setFilter({ customer: v })} />
        </>
      }
      exportPath="/comments"
      aboveTable={
        canModerate && selectedCount > 0 ? (
          <BulkBar
            count={selectedCount}
            allMatching={selection.allMatching}
            offerAll={pageSelected && !selection.allMatching && (data?.total ?? 0) > pageIds.length}
            total={shownTotal}
            onAll={() => setSelection({ ids: new Set(), allMatching: true })}
            onClear={() => setSelection(noSelection())}
            onAction={setPending}
          />
        ) : null
      }
      tableIntro={
        query.isPending ? (
          <p className="mb-2 text-sm text-base-content/80" role="status">
            {commentsMsg.loading}
          </p>
        ) : null
      }
      record={{ key: (c) => c.comment_id }}
      table={{
        label: commentsMsg.tableTitle(shownTotal),
        columns,
        sortable: commentSortKeys,
        empty: (
          <EmptyState
            title={commentsMsg.empty}
            text={list.narrowed ? commentsMsg.emptyFiltered : commentsMsg.emptyNone}
          />
        ),
      }}
    >
      {pending ? (
        <BulkDialog
          status={pending}
          target={
            selection.allMatching
              ? {
                  filter: {
                    status: status as CommentStatus | undefined,
                    customer_id: customer,
                    q: list.state.q || undefined,
                  },
                  all: !list.narrowed,
                }
              : { ids: [...selection.ids] }
          }
          onClose={() => setPending(null)}
          onDone={(result) => {
            setPending(null);
            setSelection(noSelection());
            notify(commentsMsg.changed(result.changed, titleCase(pending)));
          }}
        />
      ) : null}
    </ListScreen>
  );
}

/** The selection's bar: how many are selected, "select all N matching", the four actions, Clear. */
function BulkBar({
  count,
  allMatching,
  offerAll,
  total,
  onAll,
  onClear,
  onAction,
}: {
  count: number;
  allMatching: boolean;
  offerAll: boolean;
  /** The matches, or "about 40.5K" while the total is an estimate. */
  total: number | string;
  onAll: () => void;
  onClear: () => void;
  onAction: (status: CommentStatus) => void;
}) {
  return (
    <div
      className="mb-3 flex flex-wrap items-center gap-2 rounded-box border border-primary/40 bg-primary/5 px-4 py-2"
      role="region"
      aria-label="Selected comments"
    >
      <span className="text-sm font-medium" data-testid="selection-count">
        {allMatching ? commentsMsg.allMatchingSelected(total) : commentsMsg.selectedCount(count)}
      </span>
      {offerAll ? (
        <button
          type="button"
          className="btn btn-link btn-sm h-auto min-h-8 max-w-full shrink whitespace-normal text-left"
          onClick={onAll}
        >
          {commentsMsg.selectAllMatching(total)}
        </button>
      ) : null}
      <span className="flex flex-wrap gap-2 sm:ml-auto">
        {moderationActions.map((a) => (
          <button
            key={a.status}
            type="button"
            className={`btn btn-sm ${a.status === "rejected" ? "btn-outline btn-error" : "btn-outline"}`}
            onClick={() => onAction(a.status)}
          >
            {a.label}
          </button>
        ))}
        <button type="button" className="btn btn-ghost btn-sm" onClick={onClear}>
          {commentsMsg.clearSelection}
        </button>
      </span>
    </div>
  );
}

/**
 * The bulk change's preview and confirmation: a dry run first ("Approve: 12 comments will change",
 * from which statuses), then the change in one server transaction; a progress bar while a big set
 * is applied. Reject says what it does before it is confirmed.
 */
function BulkDialog({
  status,
  target,
  onClose,
  onDone,
}: {
  status: CommentStatus;
  target: { ids: string[] } | { filter: { status?: CommentStatus; customer_id?: string; q?: string }; all: boolean };
  onClose: () => void;
  onDone: (result: BulkCommentResult) => void;
}) {
  const preview = useBulkComments();
  const apply = useBulkComments();
  const label = moderationActions.find((a) => a.status === status)!.label;
  const body = { status, ...target };
  // The preview runs once, when the dialog opens.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => preview.mutate({ ...body, dry_run: true }), []);
  const counts = preview.data;
  const error = preview.error ?? apply.error;
  return (
    <Modal
      open
      title={commentsMsg.bulkTitle(label)}
      onClose={apply.isPending ? () => undefined : onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={apply.isPending} data-autofocus>
            {shellMsg.ui.cancel}
          </button>
          <button
            type="button"
            className={`btn ${status === "rejected" ? "btn-error" : "btn-primary"}`}
            disabled={!counts || counts.changed === 0 || apply.isPending}
            onClick={() => apply.mutate(body, { onSuccess: onDone })}
          >
            {apply.isPending ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
            {label}
          </button>
        </>
      }
    >
      {counts ? (
        <div className="space-y-3 text-sm" data-testid="bulk-preview">
          <p className="font-medium">
            {counts.changed === 0 ? commentsMsg.bulkNothing : commentsMsg.bulkPreview(counts.changed, label)}
          </p>
          {counts.changed > 0 ? (
            <dl className="grid grid-cols-[auto_auto] justify-start gap-x-4 gap-y-1">
              {commentStatuses
                .filter((s) => counts.from[s] > 0)
                .map((s) => (
                  <div key={s} className="contents">
                    <dt>
                      {commentsMsg.bulkFrom} <StatusBadge kind="comment" status={s} />
                    </dt>
                    <dd className="tabular-nums">{counts.from[s].toLocaleString("en-US")}</dd>
                  </div>
                ))}
            </dl>
          ) : null}
          {status === "rejected" && counts.changed > 0 ? (
            <p className="text-warning-content">{commentsMsg.bulkRejectConfirm}</p>
          ) : null}
          {apply.isPending && counts.changed > progressFrom ? (
            <div>
              <p id="bulk-progress-label">{commentsMsg.bulkApplying(counts.changed)}</p>
              <progress className="progress progress-primary w-full" aria-labelledby="bulk-progress-label" />
            </div>
          ) : null}
        </div>
      ) : (
        !error && (
          <p className="text-sm" role="status">
            {appMsg.loading}
          </p>
        )
      )}
      {error ? (
        <div role="alert" className="alert alert-error alert-soft mt-4 text-sm">
          {errorMessage(error)}
        </div>
      ) : null}
    </Modal>
  );
}
