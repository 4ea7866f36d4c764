/**
 * The prompt record operations the prompt routes and the review of prompt changes share
 * (docs/prompt-review.md): the locked row, the active skill check, and its versions.
 */
import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { msg } from "../../domain/messages";
import type { Tx } from "../audit";
import { queryRows } from "../db/client";
import { recordsOf } from "../db/records";
import { pedal_prompts, prompt_versions } from "../db/schema";
import { HttpError } from "../http/errors";
import { sharedSkill } from "../links";
import type { AppEnv } from "../http/env";

export type PromptRow = typeof pedal_prompts.$inferSelect;

/** The prompt locked for update, or 404. */
export const promptRecords = recordsOf({
  table: pedal_prompts,
  id: pedal_prompts.prompt_id,
  entity: "prompt",
  notFound: msg.prompts.notFound,
});
export const lockedPrompt = (tx: Tx, promptId: string): Promise<PromptRow> => promptRecords.lock(tx, promptId);

/** The skill a prompt is given, which must exist and be active (SPEC.md §2: active skills); locked against deletion. */
export async function activeSkill(tx: Tx, skillId: string) {
  const skill = await sharedSkill(tx, skillId);
  if (!skill) throw new HttpError(422, "validation_failed", msg.skills.notFound, { skill_id: msg.skills.notFound });
  if (skill.status !== "active")
    throw new HttpError(422, "validation_failed", msg.prompts.skillNotActive, { skill_id: msg.prompts.skillNotActive });
}

/** Who wrote a version: the request's operator, or a reviewed change's author. */
export type VersionAuthor = { id: string; email: string | null; changeId: string };

/**
 * A row of prompt_versions: `row`'s title and content as version `version`, written now by the
 * request's operator, or by `author` (a change approved by the request's operator).
 */
export function versionOf(
  c: Context<AppEnv>,
  row: PromptRow,
  version: number,
  restoredFrom: number | null = null,
  author?: VersionAuthor,
) {
  const user = author ? { id: author.id, email: author.email } : c.get("session")?.user;
  return {
    change_id: author?.changeId ?? null,
    prompt_id: row.prompt_id,
    version,
    prompt_title: row.prompt_title,
    prompt_value: row.prompt_value,
    restored_from: restoredFrom,
    operator_id: user?.id ?? null,
    operator_email: user?.email ?? null,
    created_at: new Date(),
  };
}

/**
 * Writes the prompt's next version (`after`'s title and content) inside `tx`, the prompt's row
 * being locked; a prompt without versions first gets version 1 from `before` (its state until now).
 * Returns the new version's number.
 */
export async function writeVersion(
  tx: Tx,
  c: Context<AppEnv>,
  before: PromptRow,
  after: PromptRow,
  restoredFrom: number | null = null,
  author?: VersionAuthor,
): Promise<number> {
  const [{ last }] = await queryRows<{ last: number }>(
    tx,
    sql`
    select coalesce(max(version), 0)::int as last from prompt_versions where prompt_id = ${before.prompt_id}`,
  );
  let next = last + 1;
  if (last === 0) {
    await tx.insert(prompt_versions).values({
      prompt_id: before.prompt_id,
      version: 1,
      prompt_title: before.prompt_title,
      prompt_value: before.prompt_value,
      created_at: before.updated_at ?? before.created_at,
    });
    next = 2;
  }
  await tx.insert(prompt_versions).values(versionOf(c, after, next, restoredFrom, author));
  return next;
}
