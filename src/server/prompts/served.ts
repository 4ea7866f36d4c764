/**
 * The one gate for what platforms are served (docs/prompt-review.md, "One gate for what platforms
 * are served"). The database holds the rule (migration 0027's triggers on pedal_prompts,
 * platform_prompts and platforms): while review is on, a write that changes what a platform review
 * covers is served is refused, whichever path made it (a route, a restore, a bulk action or its
 * undo, a cascade), unless the transaction applies an approved change. This module is the
 * console's side of it: every transaction states the mode, an approval marks its own, and a
 * restore turns the assignments review covers into proposed changes instead of writing them.
 */
import { inArray, sql } from "drizzle-orm";
import type { PromptReviewMode } from "../../domain/enums";
import type { AuditEntry, Tx } from "../audit";
import { reviewRestoredAssignments, type AssignmentReview } from "../deleted";
import type { Database } from "../db/client";
import { pedal_prompts } from "../db/schema";
import { HttpError } from "../http/errors";
import { proposeChange } from "./review";

/**
 * `db` whose every transaction first states the PROMPT_REVIEW mode (`pedal.prompt_review`,
 * transaction-local), which the gate's triggers read. With review off, `db` itself: the triggers
 * then let everything through and no statement is added. Every console write that touches several
 * rows or is audited runs in a transaction (`mutate`, the bulk engine's batches), so every path is
 * covered by construction.
 */
export function reviewedDatabase(db: Database, mode: PromptReviewMode): Database {
  if (mode === "off") return db;
  const transaction: Database["transaction"] = (work, config) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('pedal.prompt_review', ${mode}, true)`);
      return work(tx);
    }, config);
  return new Proxy(db, {
    get: (target, prop, receiver) =>
      prop === "transaction" ? transaction : (Reflect.get(target, prop, receiver) as unknown),
  });
}

/** Marks `tx` as applying an approved change: the gate lets its writes through (POST /api/prompt-changes/{id}/approve). */
export async function applyingApproved(tx: Tx): Promise<void> {
  await tx.execute(sql`select set_config('pedal.review_applying', 'on', true)`);
}

/**
 * Sorts assignments a restore would put back (a prompt's, a platform's, an unassignment) into
 * those it may write (`back`: review does not cover them) and those sent for review instead: each
 * becomes a proposed `assign` change by the restoring operator (an assignment they already
 * proposed counts as sent), with its `propose_change` audit rows. The prompts named must exist.
 */
export const restoreAssignments: AssignmentReview = async (tx, c, rows) => {
  type T = (typeof rows)[number];
  const out = { back: [] as T[], sent: [] as T[], audit: [] as AuditEntry[] };
  if (c.get("promptReview") === "off" || rows.length === 0) return { ...out, back: rows };
  // The prompts in one read; each covered assignment is then one proposal (a row of its own).
  const prompts = new Map(
    (
      await tx
        .select()
        .from(pedal_prompts)
        .where(inArray(pedal_prompts.prompt_id, [...new Set(rows.map((r) => String(r.prompt_id)))]))
    ).map((p) => [p.prompt_id, p]),
  );
  for (const row of rows) {
    const prompt = prompts.get(String(row.prompt_id));
    try {
      const proposed =
        prompt && (await proposeChange(tx, c, prompt, { kind: "assign", platformId: String(row.platform_id) }));
      if (!proposed) out.back.push(row);
      else {
        out.sent.push(row);
        out.audit.push(...proposed.audit);
      }
    } catch (err) {
      if (!(err instanceof HttpError && err.code === "already_proposed")) throw err;
      out.sent.push(row);
    }
  }
  return out;
};
reviewRestoredAssignments(restoreAssignments);
