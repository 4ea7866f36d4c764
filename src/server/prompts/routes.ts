import { z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { deletedResultSchema } from "../../domain/deleted";
import { msg } from "../../domain/messages";
import {
  assignPlatformSchema,
  createPromptSchema,
  platformAssignmentResultSchema,
  promptDetailSchema,
  promptSchema,
  promptVersionDetailSchema,
  updatePromptSchema,
} from "../../domain/prompts";
import { mutate } from "../audit";
import { platformAssignmentAudit } from "../links";
import { recordDeletion, recordName, takeRows } from "../deleted";
import { idParams, mountRecordRoutes, type RecordRoutes } from "../http/record-routes";
import { pedal_prompts, platform_prompts, prompt_versions } from "../db/schema";
import { errorBodySchema, HttpError, notFound } from "../http/errors";
import { requireFound } from "../http/found";
import { toJson } from "../http/list";
import { activePlatform } from "./bulk";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import {
  assignablePlatformList,
  assignablePlatformScope,
  getPrompt,
  getPromptVersion,
  promptList,
  promptPlatformList,
  promptVersionList,
} from "./queries";
import { promptChangeHistoryList } from "./changes-queries";
import { activeSkill, lockedPrompt, promptRecords, versionOf, writeVersion, type PromptRow } from "./records";
import { proposeChange, type Outcome } from "./review";
import { proposedResultSchema } from "../../domain/prompt-changes";

export const promptsBase = "/api/prompts";
const json = jsonResponse;
const promptNotFound = notFoundResponse(msg.prompts.notFound);
const invalid = invalidResponse;
const conflict409 = (description: string) => ({ 409: jsonResponse(errorBodySchema, description) });
const params = idParams("promptId", msg.prompts.notFound);
const assignmentParams = params.extend({ platformId: z.guid({ error: msg.platforms.notFound }) });
/**
 * A version number, in the path (coerced) or in a body: a whole number from 1 to the column's
 * maximum, else "version not found".
 */
const versionNumber = (base: z.ZodNumber | z.ZodCoercedNumber) =>
  base
    .int(msg.prompts.versionNotFound)
    .min(1, msg.prompts.versionNotFound)
    .max(2_147_483_647, msg.prompts.versionNotFound);
const versionParams = params.extend({
  version: versionNumber(z.coerce.number({ error: msg.prompts.versionNotFound })),
});
const restoreSchema = z.strictObject({ version: versionNumber(z.number({ error: msg.prompts.versionNotFound })) });
const promptExists = (id: string) => sql`exists (select 1 from pedal_prompts where prompt_id = ${id})`;

export const promptsRouter = createRouter();

/**
 * GET /api/prompts/{promptId} → the prompt with skill_name, skill_status and version_count (SPEC.md
 * §2). POST /api/prompts `{ prompt_title, skill_id, prompt_value?, status? }` → 201 the prompt
 * (SPEC.md §2 "/prompts/add", §5: title required, skill required and active, content trimmed or
 * null, default active); writes version 1. PATCH /api/prompts/{promptId} `{ prompt_title?,
 * prompt_value?, skill_id?, status? }` → the prompt: Edit (SPEC.md §5) and Activate / Archive
 * (`{ status }`, §4); a change of title or content writes the next version (and version 1 first,
 * for a prompt that has none); a new skill must be active (422). DELETE /api/prompts/{promptId} →
 * `{ ok, deletion_id }`: the prompt, its platform assignments and its versions (SPEC.md §4).
 */
export const promptRoutes: RecordRoutes<PromptRow, typeof createPromptSchema, typeof updatePromptSchema, z.ZodObject> =
  {
    base: promptsBase,
    tag: "Prompts",
    noun: "prompt",
    params,
    records: promptRecords,
    detail: {
      schema: promptDetailSchema,
      read: (db, id, c) => getPrompt(db, id, c.get("promptReview"), c.get("session")?.user.id),
    },
    // PROMPT_REVIEW (docs/prompt-review.md): an edit, Activate / Archive or a deletion may wait for review (202).
    review: {
      schema: proposedResultSchema,
      propose: (tx, c, before, change) =>
        proposeChange(tx, c, before, change.kind === "delete" ? change : { kind: "update", input: change.input }),
    },
    create: {
      body: createPromptSchema,
      schema: promptSchema,
      write: async (tx, input, c) => {
        await activeSkill(tx, input.skill_id);
        const written = await promptRecords.create(tx, input);
        const row = written.result;
        await tx.insert(prompt_versions).values({ ...versionOf(c, row, 1), created_at: row.created_at });
        return written;
      },
    },
    update: {
      summary: "Edit, activate or archive a prompt",
      body: updatePromptSchema,
      schema: promptSchema,
      write: async (tx, before, input, c) => {
        if (input.skill_id && input.skill_id !== before.skill_id) await activeSkill(tx, input.skill_id);
        const written = await promptRecords.update(tx, before, input);
        const after = written.result;
        // A new title or content is a new version, named in the update's audit row.
        const textChanged = after.prompt_title !== before.prompt_title || after.prompt_value !== before.prompt_value;
        const version = textChanged ? await writeVersion(tx, c, before, after) : undefined;
        if (version) written.audit[0].after = { ...written.audit[0].after, version };
        return written;
      },
    },
    remove: {
      schema: deletedResultSchema,
      label: (prompt, tx) => recordName(tx, "prompt", prompt.prompt_id),
      cascade: ["platform_prompts", "prompt_versions"],
      audit: (taken) => ({
        platform_ids: taken.platform_prompts?.map((a) => a.platform_id),
        version_count: taken.prompt_versions?.length,
      }),
    },
    list: {
      description:
        "Prompts with an excerpt of the content, skill_name and platform_names; filters status, skill_id; `q` searches title, content, skill name and status; cards over all prompts.",
      list: promptList,
    },
    lists: [
      // The Platform Assignments table (newest first); 404 "Prompt not found".
      {
        path: "/platforms",
        summary: "Platform assignments of a prompt",
        description:
          "The prompt's platforms with name, description, status and is_active; `q` searches name and description.",
        list: promptPlatformList,
        where: (id) => sql`pp.prompt_id = ${id}`,
      },
      // The Assign Platform modal's candidates. The prompt's existence is part of the condition:
      // platforms exist whether or not the prompt does.
      {
        path: "/assignable-platforms",
        summary: "Platforms a prompt can be assigned to",
        description:
          "Active platforms not yet assigned to the prompt (SPEC.md §7), by name; `q` searches name and description.",
        list: assignablePlatformList,
        where: (id) => sql`pl.status = 'active' and ${assignablePlatformScope(id)} and ${promptExists(id)}`,
      },
      // The Versions panel (newest first); 404 "Prompt not found".
      {
        path: "/versions",
        summary: "Versions of a prompt",
        description: "The prompt's versions (number, title, who, when, restored_from), newest first.",
        list: promptVersionList,
        where: (id) => sql`v.prompt_id = ${id}`,
      },
      // The review history (docs/prompt-review.md): the prompt's proposed changes in every state, newest first.
      {
        path: "/changes",
        summary: "Proposed changes of a prompt",
        description:
          "The prompt's proposed changes (pending, approved, rejected, withdrawn), newest first; filter status; `q` searches the author's e-mail.",
        list: promptChangeHistoryList,
        where: (id) => sql`pc.prompt_id = ${id}`,
      },
    ],
  };
mountRecordRoutes(promptsRouter, promptRoutes);

/**
 * POST /api/prompts/{promptId}/platforms `{ platform_id }` → 201 the assignment, is_active true
 * (SPEC.md §4). One row per platform and prompt: a second assign is a 409. 404 unknown prompt;
 * 422 unknown or inactive platform.
 */
const assign = apiRoute(promptsBase, "editor", {
  method: "post",
  path: "/{promptId}/platforms",
  tags: ["Prompts"],
  summary: "Assign a platform to a prompt",
  request: { params, body: jsonBody(assignPlatformSchema) },
  responses: {
    201: json(platformAssignmentResultSchema, "Assigned"),
    202: json(proposedResultSchema, "Saved for review, not applied"),
    ...promptNotFound,
    ...invalid,
    ...conflict409(msg.prompts.alreadyAssigned),
  },
});

/**
 * DELETE /api/prompts/{promptId}/platforms/{platformId} → `{ ok, deletion_id }`: Unassign, the
 * assignment row is deleted (SPEC.md §4) and kept as a snapshot for Undo. 404 when not assigned.
 */
const unassign = apiRoute(promptsBase, "editor", {
  method: "delete",
  path: "/{promptId}/platforms/{platformId}",
  tags: ["Prompts"],
  summary: "Unassign a platform from a prompt",
  request: { params: assignmentParams },
  responses: {
    200: json(deletedResultSchema, "Unassigned"),
    202: json(proposedResultSchema, "Saved for review, not applied"),
    ...notFoundResponse(msg.prompts.notAssigned),
  },
});

/** GET /api/prompts/{promptId}/versions/{version} → one version with its title and content (the diff's source); 404. */
const version = apiRoute(promptsBase, "viewer", {
  method: "get",
  path: "/{promptId}/versions/{version}",
  tags: ["Prompts"],
  summary: "One version of a prompt",
  request: { params: versionParams },
  responses: { 200: json(promptVersionDetailSchema, "The version"), ...notFoundResponse(msg.prompts.versionNotFound) },
});

/**
 * POST /api/prompts/{promptId}/restore `{ version }` → the prompt with that version's title and
 * content, written as a new version (restored_from = version), audited; when they already are the
 * prompt's, nothing is written. 404 unknown prompt or version.
 */
const restore = apiRoute(promptsBase, "editor", {
  method: "post",
  path: "/{promptId}/restore",
  tags: ["Prompts"],
  summary: "Restore a version of a prompt",
  request: { params, body: jsonBody(restoreSchema) },
  responses: {
    200: json(promptSchema, "Restored"),
    202: json(proposedResultSchema, "Saved for review, not applied"),
    ...promptNotFound,
    ...invalid,
  },
});

promptsRouter
  .openapi(assign, async (c) => {
    const { promptId } = c.req.valid("param");
    const { platform_id } = c.req.valid("json");
    const outcome = await mutate<Outcome<typeof platform_prompts.$inferSelect>>(c, async (tx) => {
      // Shared locks: neither the prompt nor the platform can be deleted meanwhile; parallel assigns still run.
      const [prompt] = await tx.select().from(pedal_prompts).where(eq(pedal_prompts.prompt_id, promptId)).for("share");
      if (!prompt) throw notFound(msg.prompts.notFound);
      const platform = await activePlatform(tx, platform_id, true);
      const [assigned] = await tx
        .select({ id: platform_prompts.platform_id })
        .from(platform_prompts)
        .where(and(eq(platform_prompts.prompt_id, promptId), eq(platform_prompts.platform_id, platform_id)));
      if (assigned)
        throw new HttpError(409, "conflict", msg.prompts.alreadyAssigned, { platform_id: msg.prompts.alreadyAssigned });
      const proposed = await proposeChange(tx, c, prompt, { kind: "assign", platformId: platform_id });
      if (proposed) return { result: { proposed: proposed.result }, audit: proposed.audit };
      // The primary key (platform_id, prompt_id) keeps one row: a second assign inserts nothing.
      const [inserted] = await tx
        .insert(platform_prompts)
        .values({ platform_id, prompt_id: promptId, is_active: true, assigned_at: new Date() })
        .onConflictDoNothing()
        .returning();
      if (!inserted)
        throw new HttpError(409, "conflict", msg.prompts.alreadyAssigned, { platform_id: msg.prompts.alreadyAssigned });
      return {
        result: { done: inserted },
        audit: platformAssignmentAudit(
          "assign_platform",
          { prompt_id: promptId, platform_id },
          { platform_name: platform.platform_name, is_active: true },
        ),
      };
    });
    if ("proposed" in outcome) return c.json(outcome.proposed, 202);
    return c.json(toJson(outcome.done), 201);
  })
  .openapi(unassign, async (c) => {
    const { promptId, platformId } = c.req.valid("param");
    const outcome = await mutate<Outcome<string>>(c, async (tx) => {
      const [prompt] = await tx.select().from(pedal_prompts).where(eq(pedal_prompts.prompt_id, promptId)).for("share");
      if (prompt) {
        const [assigned] = await tx
          .select({ id: platform_prompts.platform_id })
          .from(platform_prompts)
          .where(and(eq(platform_prompts.prompt_id, promptId), eq(platform_prompts.platform_id, platformId)));
        const proposed = assigned && (await proposeChange(tx, c, prompt, { kind: "unassign", platformId }));
        if (proposed) return { result: { proposed: proposed.result }, audit: proposed.audit };
      }
      const [row] = await takeRows(
        tx,
        "platform_prompts",
        sql`prompt_id = ${promptId} and platform_id = ${platformId}`,
      );
      if (!row) throw notFound(msg.prompts.notAssigned);
      const deletion = await recordDeletion(tx, c, { entity: "prompt_platform", row });
      return {
        result: { done: deletion },
        audit: platformAssignmentAudit(
          "unassign_platform",
          { prompt_id: promptId, platform_id: platformId },
          { is_active: row.is_active },
        ),
      };
    });
    if ("proposed" in outcome) return c.json(outcome.proposed, 202);
    return c.json({ ok: true as const, deletion_id: outcome.done }, 200);
  })
  .openapi(version, async (c) => {
    const { promptId, version: n } = c.req.valid("param");
    return c.json(requireFound(await getPromptVersion(c.get("db"), promptId, n), msg.prompts.versionNotFound), 200);
  })
  .openapi(restore, async (c) => {
    const { promptId } = c.req.valid("param");
    const { version: n } = c.req.valid("json");
    const outcome = await mutate<Outcome<PromptRow>>(c, async (tx) => {
      const before = await lockedPrompt(tx, promptId);
      const [source] = await tx
        .select()
        .from(prompt_versions)
        .where(and(eq(prompt_versions.prompt_id, promptId), eq(prompt_versions.version, n)));
      if (!source) throw notFound(msg.prompts.versionNotFound);
      if (source.prompt_title === before.prompt_title && source.prompt_value === before.prompt_value)
        return { result: { done: before }, audit: [] };
      const input = { prompt_title: source.prompt_title, prompt_value: source.prompt_value };
      const proposed = await proposeChange(tx, c, before, { kind: "update", input, restoredFrom: n });
      if (proposed) return { result: { proposed: proposed.result }, audit: proposed.audit };
      const [after] = await tx
        .update(pedal_prompts)
        .set({ prompt_title: source.prompt_title, prompt_value: source.prompt_value, updated_at: new Date() })
        .where(eq(pedal_prompts.prompt_id, promptId))
        .returning();
      const created = await writeVersion(tx, c, before, after, n);
      return {
        result: { done: after },
        audit: [
          {
            action: "restore_version" as const,
            entity: "prompt" as const,
            entity_id: promptId,
            before: toJson(before),
            after: { ...toJson(after), version: created, restored_from: n },
          },
        ],
      };
    });
    if ("proposed" in outcome) return c.json(outcome.proposed, 202);
    return c.json(toJson(outcome.done), 200);
  });
