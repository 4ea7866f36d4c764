/**
 * The review of proposed prompt changes (docs/prompt-review.md): the Reviews queue, one change,
 * and the decisions on it. Approving applies the change in the same transaction as a new version
 * (or the deletion, assignment or unassignment it proposes); nobody decides on their own change,
 * whatever their role or credential; two reviewers at once: one applies, the other is told.
 */
import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { promptReviewModes } from "../../domain/enums";
import { msg } from "../../domain/messages";
import {
  approveChangeSchema,
  approveChangesResultSchema,
  approveChangesSchema,
  promptChangeSchema,
  rejectChangeSchema,
  type PromptChange,
  variableList,
} from "../../domain/prompt-changes";
import { mutate, type AuditEntry, type Tx } from "../audit";
import { queryRows, type Database } from "../db/client";
import { pedal_prompts, platform_prompts, prompt_changes } from "../db/schema";
import type { AppEnv } from "../http/env";
import { errorBodySchema, HttpError, notFound } from "../http/errors";
import { requireFound } from "../http/found";
import { toJson } from "../http/list";
import { mountList } from "../http/list-routes";
import { deleteRecord, idParams } from "../http/record-routes";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import { platformAssignmentAudit } from "../links";
import { recordDeletion, takeRows } from "../deleted";
import { activePlatform } from "./bulk";
import { getPromptChange, pendingChangeCount, promptChangeList, undeclaredVariables } from "./changes-queries";
import { activeSkill, promptRecords, writeVersion, type PromptRow } from "./records";
import { applyingApproved } from "./served";
import { promptRoutes } from "./routes";

export const promptChangesBase = "/api/prompt-changes";
export const promptChangesRouter = createRouter();

const tags = ["Reviews"];
const params = idParams("changeId", msg.reviews.notFound);
const missing = notFoundResponse(msg.reviews.notFound);
const refused = (description: string) => ({
  403: jsonResponse(errorBodySchema, description),
  409: jsonResponse(
    errorBodySchema,
    "already_decided; stale: the prompt changed since the change was made; superseded: its author saved a new revision (`current_revision`)",
  ),
});

/**
 * A reviewer's decision on one change (approve, reject): POST `path` with `body` → the change (200,
 * `done`); 404, 422, and 403 `refusal` or 409 (`refused`).
 */
function decisionRoute<P extends string, B extends z.ZodType>(
  path: P,
  summary: string,
  body: B,
  done: string,
  refusal: string,
) {
  return apiRoute(promptChangesBase, "editor", {
    method: "post",
    path,
    tags,
    summary,
    request: { params, body: jsonBody(body) },
    responses: {
      200: jsonResponse(promptChangeSchema, done),
      ...missing,
      ...invalidResponse,
      ...refused(refusal),
    },
  });
}

type ChangeRow = typeof prompt_changes.$inferSelect;
type Decision = "approve" | "reject" | "withdraw";

const decidedStatus = { approve: "approved", reject: "rejected", withdraw: "withdrawn" } as const;
const decisionAction = { approve: "approve_change", reject: "reject_change", withdraw: "withdraw_change" } as const;

/**
 * Decides on change `changeId` inside one transaction: the prompt locked first (the order every
 * prompt write takes, so an author saving again and a reviewer approving cannot deadlock), then
 * the change; a decided change is refused (409 `already_decided`, naming who decided); approve and
 * reject are refused to the change's author (403 `self_review`), withdraw to anyone else (403
 * `not_author`). Approve also refuses a stale change (409 `stale`, with the live prompt as
 * `current`) and one whose variables a platform does not provide (422 `undeclared_variable`),
 * then applies it. Approve and reject are refused with 409 `superseded` (nothing applied, the
 * latest revision as `current_revision`: `{ change_id, revision, status }`) when the change was replaced by
 * its author's new save, or `revision` (what the reviewer read) is not the change's. Returns the change as decided (an approved deletion's, read before its prompt went).
 */
async function decide(
  c: Context<AppEnv>,
  changeId: string,
  decision: Decision,
  text: string | null,
  revision?: number,
): Promise<PromptChange> {
  const user = c.get("session")?.user;
  if (!user) throw new HttpError(401, "unauthorized", msg.api.unauthorized);
  return mutate(c, async (tx) => {
    const [target] = await tx
      .select({ prompt_id: prompt_changes.prompt_id })
      .from(prompt_changes)
      .where(eq(prompt_changes.change_id, changeId));
    if (!target) throw notFound(msg.reviews.notFound);
    const [prompt] = await tx
      .select()
      .from(pedal_prompts)
      .where(eq(pedal_prompts.prompt_id, target.prompt_id))
      .for("update");
    const [change] = await tx.select().from(prompt_changes).where(eq(prompt_changes.change_id, changeId)).for("update");
    if (!change || !prompt) throw notFound(msg.reviews.notFound);
    // What the reviewer read is no longer what waits: nothing applies, and they are sent to it.
    if (
      decision !== "withdraw" &&
      (change.status === "superseded" || (revision !== undefined && revision !== change.revision))
    ) {
      const current = await latestRevision(tx, change);
      throw new HttpError(409, "superseded", msg.reviews.superseded(current.revision), undefined, {
        current_revision: current,
      });
    }
    if (change.status !== "pending") {
      const label = (msg.reviews.statusLabels[change.status] ?? change.status).toLowerCase();
      throw new HttpError(
        409,
        "already_decided",
        msg.reviews.alreadyDecided(label, change.decided_by_email ?? msg.prompts.unknownOperator),
        undefined,
        { status: change.status },
      );
    }
    const own = change.proposed_by === user.id;
    if (decision === "withdraw" && !own) throw new HttpError(403, "not_author", msg.reviews.notAuthor);
    if (decision !== "withdraw" && own) throw new HttpError(403, "self_review", msg.reviews.selfReview);

    let applied: { version: number | null; audit: AuditEntry[] } = { version: null, audit: [] };
    if (decision === "approve") applied = await apply(tx, c, change, prompt);
    const now = new Date();
    // A deletion's change goes with its prompt (foreign key): it is decided before the prompt is taken.
    await tx
      .update(prompt_changes)
      .set({
        status: decidedStatus[decision],
        decided_by: user.id,
        decided_by_email: user.email,
        decided_at: now,
        updated_at: now,
        decision_comment: text,
        applied_version: applied.version,
      })
      .where(eq(prompt_changes.change_id, changeId));
    const decided = (await getPromptChange(tx, changeId)) as PromptChange;
    if (decision === "approve" && change.kind === "delete") {
      const removed = await deleteRecord(promptRoutes, tx, c, prompt, prompt.prompt_id);
      applied.audit.push(...removed.audit);
      decided.current = null;
    }
    return {
      result: decided,
      audit: [
        {
          action: decisionAction[decision],
          entity: "prompt_change" as const,
          entity_id: changeId,
          after: {
            prompt_id: change.prompt_id,
            kind: change.kind,
            proposed_by: change.proposed_by_email,
            ...(text ? { [decision === "reject" ? "reason" : "comment"]: text } : {}),
            ...(applied.version ? { version: applied.version } : {}),
          },
        },
        ...applied.audit,
      ],
    };
  });
}

/** The newest revision of the chain `change` belongs to (itself when nothing replaced it), in one statement. */
async function latestRevision(
  tx: Tx,
  change: ChangeRow,
): Promise<{ change_id: string; revision: number; status: string }> {
  const [latest] = await queryRows<{ change_id: string; revision: number; status: string }>(
    tx,
    sql`with recursive chain as (
        select change_id, revision, status, superseded_by from prompt_changes where change_id = ${change.change_id}
        union all
        select p.change_id, p.revision, p.status, p.superseded_by
        from prompt_changes p join chain c on p.change_id = c.superseded_by
      )
      select change_id::text as change_id, revision, status from chain order by revision desc limit 1`,
  );
  return latest;
}

/**
 * Applies an approved change to the locked prompt: the proposed state as the next version
 * (written in the author's name, linked to the change), or the assignment or unassignment.
 * A deletion is applied by `decide` once the change is marked. Refuses a stale change (409) and
 * undeclared variables (422).
 */
async function apply(
  tx: Tx,
  c: Context<AppEnv>,
  change: ChangeRow,
  before: PromptRow,
): Promise<{ version: number | null; audit: AuditEntry[] }> {
  const db: Database = tx;
  const [{ stale }] = await queryRows<{ stale: boolean }>(
    db,
    sql`select ${
      change.kind === "update" || change.kind === "delete"
        ? sql`(${before.prompt_title}::text, ${before.prompt_value}::text, ${before.status}::text, ${before.skill_id}::uuid)
            is distinct from (${change.base_title}::text, ${change.base_value}::text, ${change.base_status}::text, ${change.base_skill_id}::uuid)`
        : sql`${change.kind === "assign"} = exists (select 1 from platform_prompts x
            where x.prompt_id = ${change.prompt_id} and x.platform_id = ${change.platform_id})`
    } as stale`,
  );
  if (stale) throw new HttpError(409, "stale", msg.reviews.stale, undefined, { current: toJson(before) });

  const content =
    change.kind === "update" ? change.prompt_value : change.kind === "assign" ? before.prompt_value : null;
  const undeclared = await undeclaredVariables(
    tx,
    content,
    change.kind === "assign" && change.platform_id
      ? { platformIds: [change.platform_id] }
      : { promptId: before.prompt_id },
  );
  if (change.kind !== "delete" && change.kind !== "unassign" && undeclared.length > 0) {
    const first = undeclared[0];
    throw new HttpError(422, "undeclared_variable", msg.reviews.undeclared(first.variable, first.platform_name), {
      variables: variableList([...new Set(undeclared.map((u) => u.variable))]),
    });
  }

  const author = { id: change.proposed_by, email: change.proposed_by_email, changeId: change.change_id };
  // The one way past the database's review gate: this transaction applies an approved change.
  await applyingApproved(tx);
  if (change.kind === "update") {
    const input = {
      prompt_title: change.prompt_title ?? before.prompt_title,
      prompt_value: change.prompt_value,
      status: (change.prompt_status ?? before.status) as PromptRow["status"],
      skill_id: change.skill_id ?? before.skill_id,
    };
    if (input.skill_id !== before.skill_id) await activeSkill(tx, input.skill_id);
    const written = await promptRecords.update(tx, before, input);
    const after = written.result;
    const textChanged = after.prompt_title !== before.prompt_title || after.prompt_value !== before.prompt_value;
    const version = textChanged ? await writeVersion(tx, c, before, after, change.restored_from ?? null, author) : null;
    if (version && written.audit[0]) written.audit[0].after = { ...written.audit[0].after, version };
    return { version, audit: written.audit };
  }
  if (change.kind === "assign" && change.platform_id) {
    const platform = await activePlatform(db, change.platform_id, true);
    await tx.insert(platform_prompts).values({
      platform_id: change.platform_id,
      prompt_id: change.prompt_id,
      is_active: true,
      assigned_at: new Date(),
    });
    return {
      version: null,
      audit: platformAssignmentAudit(
        "assign_platform",
        { prompt_id: change.prompt_id, platform_id: change.platform_id },
        { platform_name: platform.platform_name, is_active: true },
      ),
    };
  }
  if (change.kind === "unassign" && change.platform_id) {
    const [row] = await takeRows(
      tx,
      "platform_prompts",
      sql`prompt_id = ${change.prompt_id} and platform_id = ${change.platform_id}`,
    );
    await recordDeletion(tx, c, { entity: "prompt_platform", row });
    return {
      version: null,
      audit: platformAssignmentAudit(
        "unassign_platform",
        { prompt_id: change.prompt_id, platform_id: change.platform_id },
        { is_active: row.is_active },
      ),
    };
  }
  return { version: null, audit: [] };
}

mountList(promptChangesRouter, {
  base: promptChangesBase,
  path: "/",
  access: "viewer",
  tags,
  summary: "The Reviews queue",
  description:
    "Proposed prompt changes, oldest first; filters status (default pending; `all`), platform_id, skill_id, proposed_by; `q` searches the prompt's title, the author's e-mail and the skill's name.",
  list: promptChangeList,
});

/** GET /api/prompt-changes/summary → `{ pending, mode }`: how many changes wait, and PROMPT_REVIEW (the sidebar). */
const summary = apiRoute(promptChangesBase, "viewer", {
  method: "get",
  path: "/summary",
  tags,
  summary: "How many changes wait for review",
  responses: {
    200: jsonResponse(
      z.object({ pending: z.number().int(), mode: z.enum(promptReviewModes) }),
      "The count and the setting",
    ),
  },
});

/** GET /api/prompt-changes/{changeId} → the change with its base, proposed and current states (`promptChangeSchema`); 404. */
const one = apiRoute(promptChangesBase, "viewer", {
  method: "get",
  path: "/{changeId}",
  tags,
  summary: "One proposed change",
  request: { params },
  responses: { 200: jsonResponse(promptChangeSchema, "The change"), ...missing },
});

/**
 * POST /api/prompt-changes/{changeId}/approve `{ comment?, revision? }` → the change, approved and
 * applied (`applied_version` for an edit). 403 `self_review`; 409 `already_decided`, `stale` or
 * `superseded` (its author saved a new revision: nothing applied); 422 `undeclared_variable`; 404.
 */
const approve = decisionRoute(
  "/{changeId}/approve",
  "Approve a proposed change (applies it)",
  approveChangeSchema,
  "Approved and applied",
  "self_review: the change's author cannot approve it",
);

/**
 * POST /api/prompt-changes/{changeId}/reject `{ reason, revision? }` → the change, rejected. 403
 * `self_review`; 409 `already_decided` or `superseded`; 404; 422.
 */
const reject = decisionRoute(
  "/{changeId}/reject",
  "Reject a proposed change",
  rejectChangeSchema,
  "Rejected",
  "self_review: the change's author cannot reject it",
);

/** POST /api/prompt-changes/{changeId}/withdraw → the change, withdrawn by its author. 403 `not_author`; 409 `already_decided`; 404. */
const withdraw = apiRoute(promptChangesBase, "editor", {
  method: "post",
  path: "/{changeId}/withdraw",
  tags,
  summary: "Withdraw one's own proposed change",
  request: { params },
  responses: {
    200: jsonResponse(promptChangeSchema, "Withdrawn"),
    ...missing,
    ...refused("not_author: only the author withdraws a change"),
  },
});

/**
 * POST /api/prompt-changes/approve `{ change_ids (1–100), comment? }` → `{ results }`: each change
 * approved in its own transaction, in the order given; a refused one (its own author, stale,
 * decided, undeclared variable, unknown) is reported with its error and the others go on.
 */
const approveMany = apiRoute(promptChangesBase, "editor", {
  method: "post",
  path: "/approve",
  tags,
  summary: "Approve several proposed changes",
  request: { body: jsonBody(approveChangesSchema) },
  responses: { 200: jsonResponse(approveChangesResultSchema, "Each change's outcome"), ...invalidResponse },
});

promptChangesRouter
  .openapi(summary, async (c) =>
    c.json({ pending: await pendingChangeCount(c.get("db")), mode: c.get("promptReview") }, 200),
  )
  .openapi(one, async (c) =>
    c.json(requireFound(await getPromptChange(c.get("db"), c.req.valid("param").changeId), msg.reviews.notFound), 200),
  )
  .openapi(approve, async (c) => {
    const { changeId } = c.req.valid("param");
    const { comment, revision } = c.req.valid("json");
    return c.json(await decide(c, changeId, "approve", comment, revision), 200);
  })
  .openapi(reject, async (c) => {
    const { changeId } = c.req.valid("param");
    const { reason, revision } = c.req.valid("json");
    return c.json(await decide(c, changeId, "reject", reason, revision), 200);
  })
  .openapi(withdraw, async (c) => {
    const { changeId } = c.req.valid("param");
    return c.json(await decide(c, changeId, "withdraw", null), 200);
  })
  .openapi(approveMany, async (c) => {
    const { change_ids, comment } = c.req.valid("json");
    const results = [];
    for (const changeId of [...new Set(change_ids)]) {
      try {
        const decided = await decide(c, changeId, "approve", comment);
        results.push({ change_id: changeId, ok: true, applied_version: decided.applied_version, error: null });
      } catch (err) {
        if (!(err instanceof HttpError) || err.status >= 500) throw err;
        results.push({
          change_id: changeId,
          ok: false,
          applied_version: null,
          error: { code: err.code, message: err.message },
        });
      }
    }
    return c.json({ results }, 200);
  });
