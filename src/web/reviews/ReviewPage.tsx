import { useRef, useState, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { AlertTriangle, Check, Undo2, X } from "lucide-react";
import { fallbacksMsg } from "../../domain/messages/kit";
import { reviewsMsg } from "../../domain/messages/reviews";
import type { PromptChange, PromptState } from "../../domain/prompt-changes";
import { ApiError } from "../api/client";
import { useAuth } from "../auth/AuthProvider";
import { useCan } from "../auth/permissions";
import { DisabledAction } from "../components/actions";
import { useConfirmAction } from "../components/ConfirmAction";
import { InfoSection, Section } from "../components/detail";
import { ErrorAlert } from "../components/ErrorAlert";
import { titleCase } from "../components/format";
import { notify } from "../components/overlays";
import { RecordPage, type RecordKind } from "../components/RecordPage";
import { DateText, Muted, RelativeTime } from "../components/text";
import { VersionDiff } from "../prompts/public";
import { KeyButton, KeysButton, useShortcutKeys } from "../lib/keyboard";
import {
  reviewKeys,
  reviewListQuery,
  reviewQuery,
  useApproveChange,
  useRejectChange,
  useWithdrawChange,
} from "./queries";
import { authorName, ChangeStatus, kindLabel } from "./ReviewCells";

const reviewRecord: RecordKind = {
  section: reviewsMsg.title,
  errorTitle: reviewsMsg.changeLoadError,
  notFound: { title: reviewsMsg.notFound },
  list: { to: "/reviews", label: reviewsMsg.backToList },
};

/** The prompt's title as the change names it: the proposal's, else the live one's. */
const changeTitle = (c: PromptChange) => c.proposed?.prompt_title ?? c.current?.prompt_title ?? c.base.prompt_title;

/**
 * One proposed change (docs/prompt-review.md): the prompt, what changes (the diff of title and
 * content against the prompt as it was when proposed with the variables it adds and removes,
 * status, skill, the platform assigned or unassigned), the out-of-date notice with the diff against the
 * prompt as it is now, the variables a platform does not provide; then the decision: Approve (an
 * optional comment), Reject (a reason), Withdraw (the author, after a confirm). Keys: A approve,
 * R reject, J and K the next and previous pending change, ? the keys.
 */
export default function ReviewPage() {
  const { changeId } = useParams({ from: "/reviews/$changeId" });
  return (
    <RecordPage
      query={reviewQuery(changeId)}
      kind={reviewRecord}
      loadingLabel={reviewsMsg.loadingChange}
      header={(c) => ({
        title: changeTitle(c),
        badge: <ChangeStatus status={c.status} stale={c.stale} />,
        subtitle: `${kindLabel(c.kind)} · ${reviewsMsg.revision(c.revision)} · ${reviewsMsg.proposedBy(authorName(c))}`,
      })}
    >
      {(c) => (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
          <div className="flex min-w-0 flex-col gap-6 xl:col-span-2">
            <Section title={reviewsMsg.changesTitle}>
              <ChangeBody change={c} />
            </Section>
          </div>
          <div className="flex min-w-0 flex-col gap-6">
            <Decision key={c.change_id} change={c} />
            <InfoSection
              title={reviewsMsg.kindTitle}
              narrow
              items={[
                {
                  label: reviewsMsg.promptTitle,
                  value: c.current ? (
                    <Link
                      to="/prompts/$promptId"
                      params={{ promptId: c.prompt_id }}
                      className="link link-hover font-medium"
                      data-testid="change-prompt"
                    >
                      {c.current.prompt_title}
                    </Link>
                  ) : (
                    <Muted>{reviewsMsg.promptGone}</Muted>
                  ),
                },
                { label: reviewsMsg.columns.kind, value: kindLabel(c.kind) },
                {
                  label: reviewsMsg.skillTitle,
                  value: (
                    <Link to="/skills/$skillId" params={{ skillId: c.base.skill_id }} className="link link-hover">
                      {c.skill_name?.trim() || fallbacksMsg.unknownSkill}
                    </Link>
                  ),
                },
                ...(c.platform_id
                  ? [
                      {
                        label: reviewsMsg.platformTitle,
                        value: (
                          <Link
                            to="/platforms/$platformId"
                            params={{ platformId: c.platform_id }}
                            className="link link-hover"
                          >
                            {c.platform_name?.trim() || fallbacksMsg.unnamedPlatform}
                          </Link>
                        ),
                      },
                    ]
                  : []),
                { label: reviewsMsg.columns.author, value: authorName(c) },
                {
                  label: reviewsMsg.proposedTitle,
                  value: (
                    <span className="flex flex-wrap gap-x-2">
                      <RelativeTime iso={c.proposed_at} />
                      <span className="text-base-content/70">
                        (<DateText iso={c.proposed_at} withTime />)
                      </span>
                    </span>
                  ),
                },
              ]}
            />
          </div>
        </div>
      )}
    </RecordPage>
  );
}

/** A line of what a change does, with its icon. */
function Line({ children, tone }: { children: ReactNode; tone?: "warning" }) {
  return (
    <p className={`flex items-start gap-2 text-sm ${tone === "warning" ? "font-medium" : ""}`}>
      {tone === "warning" ? <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0 text-warning" aria-hidden /> : null}
      <span className="min-w-0 break-words">{children}</span>
    </p>
  );
}

/** What the change does: the diff of an edit, a deletion, an assignment; out of date against the prompt now. */
function ChangeBody({ change: c }: { change: PromptChange }) {
  const platform = c.platform_name?.trim() || fallbacksMsg.unnamedPlatform;
  return (
    <div className="flex flex-col gap-4">
      {c.stale && c.status === "pending" ? (
        <div role="status" className="alert alert-warning alert-soft text-sm" data-testid="stale-notice">
          <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden />
          <span>{reviewsMsg.stale}</span>
        </div>
      ) : null}
      {c.undeclared.length > 0 && c.status === "pending" ? (
        <div role="alert" className="alert alert-error alert-soft text-sm" data-testid="undeclared">
          <div className="flex flex-col gap-1">
            <p className="font-medium">{reviewsMsg.undeclaredTitle}</p>
            <ul className="list-disc pl-5">
              {c.undeclared.map((u) => (
                <li key={`${u.variable}-${u.platform_id}`}>{reviewsMsg.undeclared(u.variable, u.platform_name)}</li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
      {c.kind === "delete" ? <Line tone="warning">{reviewsMsg.deletes}</Line> : null}
      {c.kind === "assign" ? <Line>{reviewsMsg.assigns(platform)}</Line> : null}
      {c.kind === "unassign" ? <Line>{reviewsMsg.unassigns(platform)}</Line> : null}
      {c.kind === "update" && c.proposed ? <UpdateLines base={c.base} proposed={c.proposed} change={c} /> : null}
      {c.kind === "update" && c.proposed ? (
        <Compared heading={c.stale || c.status !== "pending" ? reviewsMsg.againstBase : reviewsMsg.againstLive}>
          <VersionDiff from={c.base} to={c.proposed} />
        </Compared>
      ) : null}
      {c.kind === "delete" && c.base.prompt_value ? (
        <pre className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-box bg-base-200 p-3 font-mono text-xs">
          {c.base.prompt_value}
        </pre>
      ) : null}
      {c.stale && c.status === "pending" && c.current && c.proposed ? (
        <Compared heading={reviewsMsg.againstCurrent}>
          <VersionDiff from={c.current} to={c.proposed} />
        </Compared>
      ) : null}
    </div>
  );
}

/** A diff under the heading naming what it compares with. */
function Compared({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">{heading}</h3>
      {children}
    </div>
  );
}

/** An edit's other changes: status (an archive or an activation), skill, a restored version. */
function UpdateLines({ base, proposed, change }: { base: PromptState; proposed: PromptState; change: PromptChange }) {
  const lines: string[] = [];
  if (change.restored_from) lines.push(reviewsMsg.restoresVersion(change.restored_from));
  if (base.status !== proposed.status)
    lines.push(reviewsMsg.statusChange(titleCase(base.status), titleCase(proposed.status)));
  if (base.skill_id !== proposed.skill_id) lines.push(reviewsMsg.skillChange);
  if (lines.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      {lines.map((l) => (
        <Line key={l}>{l}</Line>
      ))}
    </div>
  );
}

/** The pending queue around a change (oldest first), for J and K. */
function useQueuePosition(changeId: string) {
  const queue = useQuery({
    ...reviewListQuery({ sort: "proposed_at", order: "asc", limit: 100 }),
    select: (page) => page.items.map((c) => c.change_id),
  });
  const ids = queue.data ?? [];
  const at = ids.indexOf(changeId);
  return {
    ids,
    at,
    next: at >= 0 ? ids[at + 1] : ids[0],
    previous: at > 0 ? ids[at - 1] : undefined,
  };
}

/**
 * The decision: for another editor or admin, the comment (or reason) and Approve, Reject; for the
 * author, Withdraw (Approve and Reject say why they cannot); for a viewer, the buttons say why;
 * once decided, who decided, when, with what comment, and the version it wrote.
 */
function Decision({ change: c }: { change: PromptChange }) {
  const me = useAuth().operator;
  const canDecide = useCan("editor");
  const navigate = useNavigate();
  const client = useQueryClient();
  // The revision read here goes with the decision: one its author replaced is refused (409 `superseded`).
  const approve = useApproveChange(c.change_id, c.revision);
  const reject = useRejectChange(c.change_id, c.revision);
  const withdraw = useWithdrawChange(c.change_id);
  const [text, setText] = useState("");
  const [textError, setTextError] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const queue = useQueuePosition(c.change_id);
  const pending = c.status === "pending";
  // As the server decides it (403 `self_review`): by the operator's id.
  const isAuthor = me?.id === c.proposed_by;
  const busy = approve.isPending || reject.isPending || withdraw.isPending;
  const error = approve.error ?? reject.error ?? withdraw.error;

  // A refusal because the change moved on (decided, out of date): the change is read again.
  const onError = (err: Error) => {
    if (err instanceof ApiError && err.status === 409)
      void client.invalidateQueries({ queryKey: reviewKeys.detail(c.change_id) });
  };
  const reasonFor = (action: "approve" | "reject"): string | undefined => {
    if (!canDecide) return reviewsMsg.viewerReason;
    if (isAuthor) return reviewsMsg.selfReview;
    if (action === "approve" && c.stale) return reviewsMsg.stale;
    if (action === "approve" && c.undeclared.length > 0)
      return reviewsMsg.undeclared(c.undeclared[0].variable, c.undeclared[0].platform_name);
    return undefined;
  };
  const reset = () => {
    approve.reset();
    reject.reset();
    withdraw.reset();
  };
  const doApprove = () => {
    if (!pending || busy || reasonFor("approve")) return;
    reset();
    approve.mutate(text.trim(), { onSuccess: () => notify(reviewsMsg.approved), onError });
  };
  const doReject = () => {
    if (!pending || busy || reasonFor("reject")) return;
    reset();
    if (!text.trim()) {
      setTextError(reviewsMsg.reasonRequired);
      field.current?.focus();
      return;
    }
    reject.mutate(text.trim(), { onSuccess: () => notify(reviewsMsg.rejected), onError });
  };
  const withdrawConfirm = useConfirmAction<PromptChange, void>({
    mutation: withdraw,
    title: reviewsMsg.withdrawTitle,
    message: () => <p>{reviewsMsg.withdrawConfirm}</p>,
    confirmLabel: reviewsMsg.withdraw,
    variables: () => undefined,
    done: () => notify(reviewsMsg.withdrawn),
  });
  const go = (id: string | undefined) => id && void navigate({ to: "/reviews/$changeId", params: { changeId: id } });
  const { setShowKeys } = useShortcutKeys(
    {
      a: doApprove,
      r: doReject,
      j: () => go(queue.next),
      k: () => go(queue.previous),
    },
    reviewsMsg.keys,
  );

  const approveReason = reasonFor("approve");
  const rejectReason = reasonFor("reject");
  return (
    <Section title={reviewsMsg.decisionTitle}>
      <div className="flex flex-col gap-4" data-testid="decision">
        {pending ? (
          <>
            {canDecide && !isAuthor ? (
              <div className="flex flex-col gap-1.5">
                <label htmlFor="decision-text" className="text-sm font-medium">
                  {reviewsMsg.decisionLabel}
                </label>
                <textarea
                  id="decision-text"
                  ref={field}
                  className={`textarea w-full ${textError ? "textarea-error" : ""}`}
                  rows={3}
                  maxLength={2000}
                  value={text}
                  aria-describedby={textError ? "decision-text-error" : "decision-text-hint"}
                  aria-invalid={textError ? true : undefined}
                  onChange={(e) => {
                    setText(e.target.value);
                    setTextError(null);
                  }}
                />
                {textError ? (
                  <p id="decision-text-error" className="text-xs font-medium text-error" role="alert">
                    {textError}
                  </p>
                ) : (
                  <p id="decision-text-hint" className="text-xs text-base-content/70">
                    {reviewsMsg.decisionHint}
                  </p>
                )}
              </div>
            ) : null}
            <div className="flex flex-wrap gap-2">
              {approveReason ? (
                <DisabledAction label={reviewsMsg.approve} icon={Check} reason={approveReason} />
              ) : (
                <KeyButton
                  label={approve.isPending ? reviewsMsg.approving : reviewsMsg.approve}
                  shortcut="A"
                  className="btn btn-primary btn-sm"
                  disabled={busy}
                  onClick={doApprove}
                />
              )}
              {rejectReason ? (
                <DisabledAction label={reviewsMsg.reject} icon={X} reason={rejectReason} />
              ) : (
                <KeyButton
                  label={reject.isPending ? reviewsMsg.rejecting : reviewsMsg.reject}
                  shortcut="R"
                  className="btn btn-outline btn-error btn-sm"
                  disabled={busy}
                  onClick={doReject}
                />
              )}
              {isAuthor && canDecide ? (
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  disabled={busy}
                  onClick={() => withdrawConfirm.ask(c)}
                >
                  <Undo2 className="h-4 w-4" aria-hidden />
                  {reviewsMsg.withdraw}
                </button>
              ) : null}
            </div>
            {isAuthor ? <p className="text-sm text-base-content/80">{reviewsMsg.selfReview}</p> : null}
          </>
        ) : (
          <DecidedInfo change={c} />
        )}
        <ErrorAlert error={error} />
        {pending ? <NewerRevision error={error} /> : null}
        <div className="flex flex-wrap items-center gap-2 border-t border-base-300 pt-3">
          <KeyButton
            label={reviewsMsg.previous}
            shortcut="K"
            disabled={!queue.previous}
            onClick={() => go(queue.previous)}
          />
          <KeyButton label={reviewsMsg.next} shortcut="J" disabled={!queue.next} onClick={() => go(queue.next)} />
          <span className="text-xs text-base-content/70" data-testid="queue-position">
            {queue.at >= 0 ? reviewsMsg.position(queue.at + 1, queue.ids.length) : reviewsMsg.notInQueue}
          </span>
          <span className="ml-auto">
            <KeysButton label={reviewsMsg.keysTitle} onClick={() => setShowKeys(true)} />
          </span>
        </div>
      </div>
      {withdrawConfirm.dialog}
    </Section>
  );
}

/** The revision a 409 `superseded` names: the way to what now waits for review. */
function NewerRevision({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || error.code !== "superseded") return null;
  const current = (error.body as { error?: { current_revision?: { change_id: string; revision: number } } })?.error
    ?.current_revision;
  return current ? <RevisionLink changeId={current.change_id} revision={current.revision} /> : null;
}

/** "Open revision N": the review of a newer revision of the same change. */
function RevisionLink({ changeId, revision }: { changeId: string; revision: number }) {
  return (
    <Link
      to="/reviews/$changeId"
      params={{ changeId }}
      className="btn btn-outline btn-sm self-start"
      data-testid="newer-revision"
    >
      {reviewsMsg.openRevision(revision)}
    </Link>
  );
}

/** A decided change: who decided and when, the comment, the version an approval wrote. */
function DecidedInfo({ change: c }: { change: PromptChange }) {
  if (c.status === "superseded")
    return (
      <div className="flex flex-col gap-2 text-sm" data-testid="decided">
        <p className="font-medium">{reviewsMsg.supersededBy(c.revision + 1)}</p>
        {c.superseded_by ? <RevisionLink changeId={c.superseded_by} revision={c.revision + 1} /> : null}
      </div>
    );
  const status = reviewsMsg.statusLabels[c.status] ?? titleCase(c.status);
  const who = c.status === "withdrawn" ? authorName(c) : (c.decided_by_email ?? reviewsMsg.unknownAuthor);
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="decided">
      <p className="font-medium">
        {reviewsMsg.decided(status, who)}
        <RelativeTime iso={c.decided_at ?? c.updated_at} />
      </p>
      {c.decision_comment ? (
        <blockquote className="whitespace-pre-wrap break-words border-l-4 border-base-300 pl-3">
          {c.decision_comment}
        </blockquote>
      ) : null}
      {c.applied_version ? (
        <p>
          {reviewsMsg.appliedAs(c.applied_version)}
          {c.current ? (
            <>
              {" · "}
              <Link to="/prompts/$promptId" params={{ promptId: c.prompt_id }} className="link link-hover">
                {reviewsMsg.viewPrompt}
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
