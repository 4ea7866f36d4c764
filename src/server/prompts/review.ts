/**
 * Saving a prompt change for review instead of applying it (docs/prompt-review.md). The prompt
 * routes call `proposeChange` once the prompt is locked: when PROMPT_REVIEW covers the change, it
 * writes a pending row of prompt_changes and the route answers 202; pedal_prompts and
 * platform_prompts are left as they are. A proposal never changes under its id: the author's new
 * save makes the next revision, a new change, and the one it replaces becomes `superseded`.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { msg } from "../../domain/messages";
import type { ProposedResult } from "../../domain/prompt-changes";
import type { Tx } from "../audit";
import type { Written } from "../db/records";
import { prompt_changes } from "../db/schema";
import type { AppEnv } from "../http/env";
import { HttpError } from "../http/errors";
import { reviewRequired } from "./changes-queries";
import type { PromptRow } from "./records";

/** A change to propose: the prompt's new state (an edit, a status, a restore), its deletion, or a platform link. */
export type ProposedChange =
  | {
      kind: "update";
      /** The fields the save changes; the rest come from the author's pending edit, else the live prompt. */
      input: Record<string, unknown>;
      restoredFrom?: number | null;
    }
  | { kind: "delete" }
  | { kind: "assign" | "unassign"; platformId: string };

/** The state `input` (a PATCH's fields) leaves the prompt in. */
export function nextState(before: PromptRow, input: Record<string, unknown>) {
  const pick = <K extends "prompt_title" | "prompt_value" | "status" | "skill_id">(k: K) =>
    (k in input ? input[k] : before[k]) as PromptRow[K];
  return {
    prompt_title: pick("prompt_title"),
    prompt_value: pick("prompt_value"),
    status: pick("status"),
    skill_id: pick("skill_id"),
  };
}

const sameState = (a: ReturnType<typeof nextState>, b: PromptRow) =>
  a.prompt_title === b.prompt_title &&
  a.prompt_value === b.prompt_value &&
  a.status === b.status &&
  a.skill_id === b.skill_id;

/**
 * When PROMPT_REVIEW covers a change to the locked prompt `before`, saves it as a pending change
 * and returns the 202 answer with its `propose_change` audit row; null when the change applies at
 * once (review off or not required, or an update that changes nothing). An author saving again
 * while their update of the prompt is pending makes the next revision: their save on top of the
 * pending one, made against the live prompt now (how a stale change is brought up to date), as a
 * new change; the pending one is marked `superseded` (with `superseded_by`), so a reviewer's
 * decision on what they read can never apply other text.
 * @throws HttpError 409 `already_proposed` for a deletion, assign or unassign the author already proposed.
 */
export async function proposeChange(
  tx: Tx,
  c: Context<AppEnv>,
  before: PromptRow,
  change: ProposedChange,
): Promise<Written<ProposedResult> | null> {
  const platformId = change.kind === "assign" || change.kind === "unassign" ? change.platformId : undefined;
  if (!(await reviewRequired(tx, c.get("promptReview"), before.prompt_id, platformId))) return null;
  const user = c.get("session")?.user;
  if (!user) throw new HttpError(401, "unauthorized", msg.api.unauthorized);
  // An author's second save (Archive after an edit, say) goes on top of their pending edit.
  const [pending] =
    change.kind === "update"
      ? await tx
          .select()
          .from(prompt_changes)
          .where(
            and(
              eq(prompt_changes.prompt_id, before.prompt_id),
              eq(prompt_changes.proposed_by, user.id),
              eq(prompt_changes.kind, "update"),
              eq(prompt_changes.status, "pending"),
            ),
          )
          .for("update")
      : [];
  const state =
    change.kind === "update"
      ? nextState(
          pending
            ? {
                ...before,
                prompt_title: pending.prompt_title ?? before.prompt_title,
                prompt_value: pending.prompt_value,
                status: (pending.prompt_status ?? before.status) as PromptRow["status"],
                skill_id: pending.skill_id ?? before.skill_id,
              }
            : before,
          change.input,
        )
      : null;
  if (state && !pending && sameState(state, before)) return null;
  const base = {
    base_title: before.prompt_title,
    base_value: before.prompt_value,
    base_status: before.status,
    base_skill_id: before.skill_id,
  };
  const proposed =
    state && change.kind === "update"
      ? {
          prompt_title: state.prompt_title,
          prompt_value: state.prompt_value,
          prompt_status: state.status,
          skill_id: state.skill_id,
          restored_from: change.restoredFrom ?? null,
        }
      : {};
  const now = new Date();
  // The pending revision steps aside first (the one-pending-per-author index), then the next one.
  if (pending)
    await tx
      .update(prompt_changes)
      .set({ status: "superseded", updated_at: now })
      .where(eq(prompt_changes.change_id, pending.change_id));
  const [inserted] = await tx
    .insert(prompt_changes)
    .values({
      prompt_id: before.prompt_id,
      kind: change.kind,
      ...base,
      ...proposed,
      platform_id: platformId ?? null,
      proposed_by: user.id,
      proposed_by_email: user.email,
      proposed_at: now,
      updated_at: now,
      revision: pending ? pending.revision + 1 : 1,
    })
    .onConflictDoNothing()
    .returning({ change_id: prompt_changes.change_id });
  if (!inserted) throw new HttpError(409, "already_proposed", msg.reviews.alreadyProposed);
  const changeId = inserted.change_id;
  if (pending)
    await tx
      .update(prompt_changes)
      .set({ superseded_by: changeId })
      .where(eq(prompt_changes.change_id, pending.change_id));
  return {
    result: { proposed: true, change_id: changeId, kind: change.kind },
    audit: [
      {
        action: "propose_change",
        entity: "prompt_change",
        entity_id: changeId,
        after: {
          prompt_id: before.prompt_id,
          kind: change.kind,
          revision: pending ? pending.revision + 1 : 1,
          ...(pending ? { supersedes: pending.change_id } : {}),
          ...proposed,
          ...(platformId ? { platform_id: platformId } : {}),
        },
      },
    ],
  };
}

/** A prompt route's transaction outcome: the change applied (`done`), or saved for review (`proposed`, answered 202). */
export type Outcome<T> = { done: T } | { proposed: ProposedResult };

/** The pending changes of a prompt (its page's "Pending review" count). */
export const pendingOfPrompt = (promptId: string) =>
  sql`(select count(*) from prompt_changes pc where pc.prompt_id = ${promptId} and pc.status = 'pending')::int`;
