import { linkOptions } from "@tanstack/react-router";
import { useState } from "react";
import { CheckCheck } from "lucide-react";
import { appMsg, shellMsg } from "../../domain/messages/common";
import { fallbacksMsg } from "../../domain/messages/kit";
import { reviewsMsg } from "../../domain/messages/reviews";
import type { PromptChangeListItem } from "../../domain/prompt-changes";
import { useCan } from "../auth/permissions";
import { selectColumn, useRowSelection } from "../components/bulk";
import { column } from "../components/columns";
import { ListEmpty, screenTexts } from "../components/list-texts";
import { ListScreen } from "../components/ListScreen";
import { Modal, notify } from "../components/overlays";
import { RecordLink } from "../components/RecordLink";
import { RelativeTime } from "../components/text";
import { ErrorAlert } from "../components/ErrorAlert";
import { useScreenList } from "../lib/screen-list";
import { PlatformNames } from "../prompts/public";
import { ReviewFilters } from "./ReviewFilters";
import { authorName, CellText, ChangeStatus, kindLabel } from "./ReviewCells";
import { reviewListQuery, useApproveChanges } from "./queries";
import { reviewSortKeys } from "./sort-keys";

const changeLink = (c: PromptChangeListItem) =>
  linkOptions({ to: "/reviews/$changeId", params: { changeId: c.change_id } });

const columns = [
  column<PromptChangeListItem>(
    "prompt_title",
    reviewsMsg.columns.prompt,
    (c) => <RecordLink {...changeLink(c)} text={c.prompt_title} />,
    { grow: true, primary: true },
  ),
  column<PromptChangeListItem>("kind", reviewsMsg.columns.kind, (c) => (
    <span className="whitespace-nowrap">{kindLabel(c.kind)}</span>
  )),
  column<PromptChangeListItem>("skill_name", reviewsMsg.columns.skill, (c) => (
    <RecordLink
      to="/skills/$skillId"
      params={{ skillId: c.skill_id }}
      text={c.skill_name?.trim() || fallbacksMsg.unknownSkill}
      className="block max-w-48 truncate"
      onClick={(e) => e.stopPropagation()}
    />
  )),
  column<PromptChangeListItem>("platform_names", reviewsMsg.columns.platforms, (c) =>
    c.platform_id ? (
      <RecordLink
        to="/platforms/$platformId"
        params={{ platformId: c.platform_id }}
        text={c.platform_name?.trim() || fallbacksMsg.unnamedPlatform}
        className="block max-w-40 truncate"
        onClick={(e) => e.stopPropagation()}
      />
    ) : (
      <PlatformNames names={c.platform_names} className="max-w-full sm:max-w-32" />
    ),
  ),
  column<PromptChangeListItem>("proposed_by", reviewsMsg.columns.author, (c) => (
    <CellText text={authorName(c)} empty={reviewsMsg.unknownAuthor} className="max-w-full sm:max-w-40" />
  )),
  column<PromptChangeListItem>("proposed_at", reviewsMsg.columns.proposed, (c) => <RelativeTime iso={c.proposed_at} />),
  column<PromptChangeListItem>("status", reviewsMsg.statusTitle, (c) => (
    <ChangeStatus status={c.status} stale={c.stale} />
  )),
];

/**
 * The Reviews queue (docs/prompt-review.md): proposed prompt changes, pending and oldest first
 * unless chosen otherwise; filters Status, Platform, Skill, Author; search; Export CSV; a row opens
 * the change. Editors and admins select pending changes and approve them at once (each on its own:
 * the ones refused are listed with their reasons).
 */
export default function ReviewsPage() {
  const list = useScreenList(
    reviewListQuery,
    { status: "status", platform: "platform_id", skill: "skill_id", author: "proposed_by" },
    { sort: "proposed_at", order: "asc" },
  );
  const { data } = list;
  const canDecide = useCan("editor");
  const pendingShown = (list.state.filters.status ?? "pending") === "pending";
  const selectable = canDecide && pendingShown;
  const sel = useRowSelection(
    data?.items,
    (c: PromptChangeListItem) => c.change_id,
    JSON.stringify([list.state.filters, list.state.q]),
  );
  const [approving, setApproving] = useState(false);
  const [refused, setRefused] = useState<Array<{ title: string; message: string }>>([]);
  const selected = [...sel.selection.rows.values()];

  return (
    <ListScreen
      list={list}
      {...screenTexts(reviewsMsg)}
      section={{ label: reviewsMsg.tableTitle }}
      search={reviewsMsg.searchPlaceholder}
      filters={<ReviewFilters list={list} />}
      exportPath="/prompt-changes"
      banner={
        refused.length > 0 ? (
          <div role="alert" className="alert alert-warning alert-soft mb-4 flex-col items-start gap-1 text-sm">
            <p className="font-medium">{reviewsMsg.refusedTitle}</p>
            <ul className="list-disc pl-5">
              {refused.map((r, i) => (
                <li key={i}>
                  <span className="font-medium">{r.title}</span>: {r.message}
                </li>
              ))}
            </ul>
          </div>
        ) : null
      }
      aboveTable={
        selectable && selected.length > 0 ? (
          <div
            className="mb-3 flex flex-wrap items-center gap-2 rounded-box border border-primary/40 bg-primary/5 px-4 py-2"
            role="region"
            aria-label={reviewsMsg.approveSelected}
          >
            <span className="text-sm font-medium" data-testid="selection-count">
              {reviewsMsg.selectedCount(selected.length)}
            </span>
            <span className="flex flex-wrap gap-2 sm:ml-auto">
              <button type="button" className="btn btn-primary btn-sm" onClick={() => setApproving(true)}>
                <CheckCheck className="h-4 w-4" aria-hidden />
                {reviewsMsg.approveSelected}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={sel.clear}>
                {reviewsMsg.clearSelection}
              </button>
            </span>
          </div>
        ) : null
      }
      record={{ key: (c) => c.change_id, link: changeLink }}
      table={{
        label: reviewsMsg.title,
        columns: selectable ? [selectColumn(sel, (c) => c.prompt_title), ...columns] : columns,
        sortable: reviewSortKeys,
        empty: <ListEmpty list={list} texts={reviewsMsg} />,
      }}
    >
      {approving ? (
        <ApproveSelectedDialog
          changes={selected}
          onClose={() => setApproving(false)}
          onDone={(failures) => {
            setApproving(false);
            sel.clear();
            setRefused(failures);
            notify(reviewsMsg.decidedBulk(selected.length - failures.length, failures.length));
          }}
        />
      ) : null}
    </ListScreen>
  );
}

/** "Approve N changes": an optional comment kept with each decision, then the several-at-once route. */
function ApproveSelectedDialog({
  changes,
  onClose,
  onDone,
}: {
  changes: PromptChangeListItem[];
  onClose: () => void;
  onDone: (refused: Array<{ title: string; message: string }>) => void;
}) {
  const approve = useApproveChanges();
  const [comment, setComment] = useState("");
  const titles = new Map(changes.map((c) => [c.change_id, c.prompt_title]));
  const submit = () =>
    approve.mutate(
      { ids: changes.map((c) => c.change_id), comment: comment.trim() },
      {
        onSuccess: ({ results }) =>
          onDone(
            results
              .filter((r) => !r.ok)
              .map((r) => ({
                title: titles.get(r.change_id) ?? r.change_id,
                message: r.error?.message ?? appMsg.genericError,
              })),
          ),
      },
    );
  return (
    <Modal
      open
      title={reviewsMsg.approveSelectedTitle(changes.length)}
      onClose={approve.isPending ? () => undefined : onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={approve.isPending}>
            {shellMsg.ui.cancel}
          </button>
          <button type="button" className="btn btn-primary" onClick={submit} disabled={approve.isPending}>
            {approve.isPending ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
            {approve.isPending ? reviewsMsg.approving : reviewsMsg.approve}
          </button>
        </>
      }
    >
      <div className="flex flex-col gap-3 text-sm">
        <p>{reviewsMsg.approveSelectedText}</p>
        <label className="flex flex-col gap-1.5">
          <span className="font-medium">{reviewsMsg.commentLabel}</span>
          <textarea
            className="textarea w-full"
            rows={3}
            maxLength={2000}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
        </label>
        <ErrorAlert error={approve.error} />
      </div>
    </Modal>
  );
}
