/**
 * Prompt review and variables (docs/prompt-review.md): the shapes of proposed changes, the review
 * decisions, the delivery read API, and how `{{variables}}` are found in a prompt's content. Shared
 * by the server (validation, answers) and the web app (forms, diffs).
 */
import { z } from "zod";
import { id, listPage, noSummary, stored, timestamp } from "./common";
import { promptChangeKinds, promptChangeStatuses, promptStatuses } from "./enums";
import { platformsMsg } from "./messages/platforms";
import { reviewsMsg } from "./messages/reviews";
import { skillsMsg } from "./messages/skills";

/** A `{{name}}` placeholder: a letter or `_` first, then letters, digits, `_`, `.` or `-`; spaces inside the braces allowed. */
const variablePattern = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]{0,99})\s*\}\}/g;
/** A variable's name as a platform declares it. */
export const variableName = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;

/** The variables `text` uses, each once, in order of first appearance. */
export function promptVariables(text: string | null | undefined): string[] {
  if (!text) return [];
  const seen = new Set<string>();
  for (const m of text.matchAll(variablePattern)) seen.add(m[1]);
  return [...seen];
}

/** The variables a change of content adds and removes. */
export function variableChanges(
  before: string | null | undefined,
  after: string | null | undefined,
): { added: string[]; removed: string[] } {
  const was = promptVariables(before);
  const now = promptVariables(after);
  return { added: now.filter((v) => !was.includes(v)), removed: was.filter((v) => !now.includes(v)) };
}

/** `{{a}}, {{b}}`: variables as the screens name them. */
export const variableList = (names: string[]) => names.map((n) => `{{${n}}}`).join(", ");

/** A variable a prompt uses that a platform it is (or would be) actively assigned to does not declare. */
export const undeclaredVariableSchema = z.object({
  variable: z.string(),
  platform_id: id,
  platform_name: z.string(),
});
export type UndeclaredVariable = z.infer<typeof undeclaredVariableSchema>;

/**
 * The variables of `content` that each of `platforms` does not provide, named with the platform,
 * platform by platform: the server's check before an approval and the edit form's as it is typed.
 */
export function undeclaredIn(
  content: string | null | undefined,
  platforms: ReadonlyArray<{ platform_id: string; platform_name: string; provided_variables: readonly string[] }>,
): UndeclaredVariable[] {
  const variables = promptVariables(content);
  return platforms.flatMap((pl) =>
    variables
      .filter((v) => !pl.provided_variables.includes(v))
      .map((variable) => ({ variable, platform_id: pl.platform_id, platform_name: pl.platform_name })),
  );
}

/** A prompt's title, content, status and skill: the live state, a change's base, or its proposal. */
export const promptStateSchema = z.object({
  prompt_title: z.string(),
  prompt_value: z.string().nullable(),
  status: stored(promptStatuses),
  skill_id: id,
});
export type PromptState = z.infer<typeof promptStateSchema>;

/**
 * One proposed change (GET /api/prompt-changes/{changeId}): what it changes (`kind`; `proposed` the
 * prompt's whole new state for an update, `platform_*` for an assign or unassign), the live state
 * it was made against (`base`) and the live state now (`current`, null once the prompt is gone);
 * `stale` when they differ (it cannot be approved as is); `undeclared` the variables that would
 * reach a platform that does not declare them (approval is refused while any remain).
 */
export const promptChangeSchema = z.object({
  change_id: id,
  prompt_id: id,
  kind: stored(promptChangeKinds),
  status: stored(promptChangeStatuses),
  base: promptStateSchema,
  proposed: promptStateSchema.nullable(),
  current: promptStateSchema.nullable(),
  skill_name: z.string().nullable(),
  restored_from: z.number().int().nullable(),
  platform_id: id.nullable(),
  platform_name: z.string().nullable(),
  /** The platforms the change reaches: an assignment's own, or every platform the prompt is assigned to. */
  platform_names: z.array(z.string()),
  proposed_by: z.string(),
  proposed_by_email: z.string().nullable(),
  proposed_at: timestamp,
  updated_at: timestamp,
  decided_by_email: z.string().nullable(),
  decided_at: timestamp.nullable(),
  decision_comment: z.string().nullable(),
  applied_version: z.number().int().nullable(),
  /** 1 for a first proposal; each new save of its author makes the next revision, a new change. */
  revision: z.number().int(),
  /** The revision that replaced this one (status `superseded`), else null. */
  superseded_by: id.nullable(),
  stale: z.boolean(),
  undeclared: z.array(undeclaredVariableSchema),
});
export type PromptChange = z.infer<typeof promptChangeSchema>;

/** A row of the Reviews queue and of a prompt's review history (`GET /api/prompt-changes`, `GET /api/prompts/{id}/changes`). */
export const promptChangeListItemSchema = z.object({
  change_id: id,
  prompt_id: id,
  prompt_title: z.string(),
  skill_id: id,
  skill_name: z.string().nullable(),
  kind: stored(promptChangeKinds),
  status: stored(promptChangeStatuses),
  platform_id: id.nullable(),
  platform_name: z.string().nullable(),
  /** The platforms the change reaches: an assignment's own, or every platform the prompt is assigned to. */
  platform_names: z.array(z.string()),
  proposed_by: z.string(),
  proposed_by_email: z.string().nullable(),
  proposed_at: timestamp,
  decided_by_email: z.string().nullable(),
  decided_at: timestamp.nullable(),
  decision_comment: z.string().nullable(),
  applied_version: z.number().int().nullable(),
  stale: z.boolean(),
});
export type PromptChangeListItem = z.infer<typeof promptChangeListItemSchema>;
export const promptChangePageSchema = listPage(promptChangeListItemSchema, noSummary);
export type PromptChangePage = z.infer<typeof promptChangePageSchema>;

/** Filters of the Reviews queue, as URL and API query parameters. */
export const promptChangeFilterSchema = z.object({
  status: z.enum(promptChangeStatuses, { error: "Unknown status" }).optional(),
  platform_id: z.guid({ error: platformsMsg.notFound }).optional(),
  skill_id: z.guid({ error: skillsMsg.notFound }).optional(),
  proposed_by: z.string().max(100).optional(),
});

/**
 * What a change under review answers instead of the record (202): the change it saved, which
 * applies once another operator approves it (docs/prompt-review.md).
 */
export const proposedResultSchema = z.object({
  proposed: z.literal(true),
  change_id: id,
  kind: stored(promptChangeKinds),
});
export type ProposedResult = z.infer<typeof proposedResultSchema>;

const decisionText = z.string({ error: reviewsMsg.commentTooLong }).trim().max(2000, reviewsMsg.commentTooLong);

/**
 * The revision the reviewer read (the change's `revision`), like If-Match: a decision on any other
 * is refused (409 `superseded`, with the current revision). Optional, since a change never changes
 * under its id; the review screen always sends it.
 */
const revision = z.number().int().min(1).optional();
/** Approve `{ comment?, revision? }`: an optional comment kept with the decision. */
export const approveChangeSchema = z.strictObject({
  comment: decisionText.optional().transform((v) => (v ? v : null)),
  revision,
});
/** Reject `{ reason, revision? }`: the reason is required. */
export const rejectChangeSchema = z.strictObject({
  reason: decisionText.min(1, reviewsMsg.reasonRequired),
  revision,
});
/** Approve several `{ change_ids, comment? }` (the Reviews queue's selection): each on its own. */
export const approveChangesSchema = z.strictObject({
  change_ids: z
    .array(z.guid({ error: reviewsMsg.notFound }))
    .min(1)
    .max(100),
  comment: decisionText.optional().transform((v) => (v ? v : null)),
});
/** Each change of a several-at-once approval: approved (with the version it wrote), or refused with the error it got. */
export const approveChangesResultSchema = z.object({
  results: z.array(
    z.object({
      change_id: id,
      ok: z.boolean(),
      applied_version: z.number().int().nullable(),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
    }),
  ),
});

/**
 * GET /api/delivery/platforms/{platform_id}/prompts: a platform's live prompts, for the platform
 * itself (docs/prompt-review.md, "Read API").
 */
export const deliveryPromptSchema = z.object({
  prompt_id: id,
  prompt_title: z.string(),
  prompt_value: z.string().nullable(),
  version: z.number().int(),
  variables: z.array(z.string()),
  skill_id: id,
  skill_name: z.string(),
  assigned_at: timestamp,
});
export const deliverySchema = z.object({
  platform_id: id,
  platform_name: z.string(),
  status: z.string(),
  provided_variables: z.array(z.string()).nullable(),
  prompts: z.array(deliveryPromptSchema),
});
export type Delivery = z.infer<typeof deliverySchema>;
