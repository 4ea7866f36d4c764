import { useQuery } from "@tanstack/react-query";
import { TriangleAlert } from "lucide-react";
import { fallbacksMsg } from "../../domain/messages/kit";
import { promptsMsg } from "../../domain/messages/prompts";
import { reviewsMsg } from "../../domain/messages/reviews";
import { promptVariables, type PromptChangeListItem, type UndeclaredVariable } from "../../domain/prompt-changes";
import { ErrorAlert } from "../components/ErrorAlert";
import { Tag, type Tone } from "../components/badges";
import { Section } from "../components/detail";
import { titleCase } from "../components/format";
import { DateText, Muted, RelativeTime } from "../components/text";
import { TargetLink } from "../components/TargetLink";
import { Spinner } from "../components/ui";
import type { PromptDetail } from "../../domain/prompts";
import { promptChangeQuery, promptChangesQuery } from "./queries";
import { VersionDiff } from "./VersionDiff";

/** How many of a prompt's changes its page reads (newest first): far more than ever wait at once. */
const changesShown = 100;

const statusTone: Record<string, Tone> = { pending: "warning", approved: "success", rejected: "error" };
const kindLabel = (kind: string) => reviewsMsg.kindLabels[kind] ?? titleCase(kind);
const statusLabel = (status: string) => reviewsMsg.statusLabels[status] ?? titleCase(status);
const author = (c: PromptChangeListItem) => c.proposed_by_email ?? promptsMsg.unknownOperator;

/** The prompt's changes, newest first: the pending ones and the decided ones come from the same page. */
export function usePromptChanges(promptId: string) {
  // Only the limit is sent (the list's default order); QueryParams requires sort and order.
  return useQuery(promptChangesQuery(promptId)({ limit: changesShown } as never));
}

/** A change's kind, as a tag, with the platform an assignment or unassignment names. */
function ChangeKind({ change }: { change: PromptChangeListItem }) {
  const platform = change.kind === "assign" || change.kind === "unassign" ? change.platform_name : null;
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-2">
      <Tag tone="secondary">{kindLabel(change.kind)}</Tag>
      {platform !== null ? (
        <span className="min-w-0 break-words text-sm font-medium">
          {platform?.trim() || fallbacksMsg.unnamedPlatform}
        </span>
      ) : null}
    </span>
  );
}

/** Variables an assigned platform does not provide, one warning line each. */
export function UndeclaredList({ undeclared }: { undeclared: UndeclaredVariable[] }) {
  if (undeclared.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1" aria-label={promptsMsg.undeclaredTitle}>
      {undeclared.map((u) => (
        <li key={`${u.variable}-${u.platform_id}`} className="flex items-start gap-2 text-sm">
          <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0 text-warning" aria-hidden />
          <span className="min-w-0 break-words">
            {promptsMsg.undeclaredVariable(u.variable, u.platform_name.trim() || fallbacksMsg.unnamedPlatform)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The Variables section: the live content's `{{variables}}` (each once, in order), or "No
 * {{variables}} in this prompt"; those an actively assigned platform does not provide are marked
 * and named with the platform.
 */
export function VariablesSection({ prompt }: { prompt: PromptDetail }) {
  const variables = prompt.variables.length ? prompt.variables : promptVariables(prompt.prompt_value);
  const missing = new Set(prompt.undeclared.map((u) => u.variable));
  return (
    <Section title={promptsMsg.variables}>
      {variables.length === 0 ? (
        <Muted>{promptsMsg.noVariables}</Muted>
      ) : (
        <ul className="flex flex-wrap gap-2" data-testid="prompt-variables">
          {variables.map((v) => (
            <li key={v}>
              <code
                className={`inline-block max-w-full break-all rounded px-1.5 py-0.5 text-xs ${missing.has(v) ? "bg-warning/20" : "bg-base-200"}`}
                title={missing.has(v) ? promptsMsg.undeclaredTitle : undefined}
              >
                {`{{${v}}}`}
                {missing.has(v) ? <span className="sr-only"> ({promptsMsg.undeclaredTitle})</span> : null}
              </code>
            </li>
          ))}
        </ul>
      )}
      <UndeclaredList undeclared={prompt.undeclared} />
    </Section>
  );
}

/** One pending change's diff against the live prompt (or, for an assignment, the variables the platform lacks). */
function PendingChangeBody({ promptId, change }: { promptId: string; change: PromptChangeListItem }) {
  const detail = useQuery(promptChangeQuery(promptId, change.change_id));
  if (detail.isPending) return <Spinner />;
  if (detail.error) return <ErrorAlert error={detail.error} />;
  const c = detail.data;
  const live = c.current ?? c.base;
  return (
    <div className="flex flex-col gap-3">
      {c.kind === "update" && c.proposed ? (
        <>
          {live.status !== c.proposed.status ? (
            <p className="text-sm">{promptsMsg.changeStatus(titleCase(live.status), titleCase(c.proposed.status))}</p>
          ) : null}
          {live.skill_id !== c.proposed.skill_id ? (
            <p className="break-words text-sm">
              {promptsMsg.changeSkill(c.skill_name?.trim() || fallbacksMsg.unknownSkill)}
            </p>
          ) : null}
          <VersionDiff from={live} to={c.proposed} same={promptsMsg.changeNoText} />
        </>
      ) : null}
      {c.current === null ? <p className="text-sm">{promptsMsg.changeGone}</p> : null}
      <UndeclaredList undeclared={c.undeclared} />
    </div>
  );
}

/**
 * The Pending review panel (only while changes wait): each change's kind, author, when, "Out of
 * date" when the prompt changed since, its diff against the live prompt and the variables it adds
 * and removes, and a link to its review screen.
 */
export function PendingReviewPanel({ promptId, changes }: { promptId: string; changes: PromptChangeListItem[] }) {
  if (changes.length === 0) return null;
  return (
    <Section title={`${reviewsMsg.pending} (${changes.length})`}>
      <ul className="flex flex-col gap-4" data-testid="pending-changes">
        {changes.map((c) => (
          <li key={c.change_id} className="flex flex-col gap-3 rounded-box border border-base-300 p-4">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="flex min-w-0 flex-col gap-1">
                <span className="flex min-w-0 flex-wrap items-center gap-2">
                  <ChangeKind change={c} />
                  {c.stale ? <Tag tone="warning">{reviewsMsg.staleBadge}</Tag> : null}
                </span>
                <span className="min-w-0 break-words text-xs text-base-content/70">
                  {promptsMsg.proposedAt(author(c))} · <RelativeTime iso={c.proposed_at} />
                </span>
              </div>
              <TargetLink to="/reviews/$changeId" params={{ changeId: c.change_id }} className="btn btn-sm btn-outline">
                <span aria-hidden>{promptsMsg.reviewChange}</span>
                <span className="sr-only">{promptsMsg.reviewChangeName(kindLabel(c.kind), author(c))}</span>
              </TargetLink>
            </div>
            <PendingChangeBody promptId={promptId} change={c} />
          </li>
        ))}
      </ul>
    </Section>
  );
}

/**
 * The Review history: the prompt's decided changes (approved, rejected, withdrawn), newest first,
 * with who proposed and decided them, when, and the decision's comment.
 */
export function ReviewHistory({ changes }: { changes: PromptChangeListItem[] }) {
  return (
    <Section title={reviewsMsg.history}>
      {changes.length === 0 ? (
        <Muted>{reviewsMsg.noHistory}</Muted>
      ) : (
        <ul className="flex flex-col divide-y divide-base-300" data-testid="review-history">
          {changes.map((c) => (
            <li key={c.change_id} className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <ChangeKind change={c} />
                <Tag tone={statusTone[c.status] ?? "neutral"}>{statusLabel(c.status)}</Tag>
              </div>
              <p className="break-words text-xs text-base-content/70">
                {promptsMsg.proposedAt(author(c))}
                {c.decided_by_email ? ` · ${promptsMsg.decidedBy(statusLabel(c.status), c.decided_by_email)}` : ""}
                {" · "}
                <DateText iso={c.decided_at ?? c.proposed_at} withTime />
                {c.applied_version ? ` · ${promptsMsg.appliedAs(c.applied_version)}` : ""}
              </p>
              {c.decision_comment ? (
                <blockquote className="break-words border-l-2 border-base-300 pl-3 text-sm whitespace-pre-line">
                  {c.decision_comment}
                </blockquote>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
