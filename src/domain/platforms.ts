import { z } from "zod";
import { id, listPage, optionsPage, queryFlag, recordSchemas, statusCardsOf, stored, timestamp } from "./common";
import { platformStatuses, promptStatuses } from "./enums";
import { platformsMsg } from "./messages/platforms";
import { variableName } from "./prompt-changes";
import { optionalText, requiredName } from "./text";

/** A row of `platforms` (SPEC.md §3). */
export const platformSchema = z.object({
  platform_id: id,
  platform_name: z.string(),
  platform_description: z.string().nullable(),
  status: stored(platformStatuses),
  created_at: timestamp,
  updated_at: timestamp.nullable(),
  /** "Changes need review" (docs/prompt-review.md); an adopted row's null reads false. */
  needs_review: z
    .boolean()
    .nullable()
    .transform((v) => v === true),
  /** The `{{variables}}` the platform provides; null when it declares none. */
  provided_variables: z.array(z.string()).nullable(),
});
export type Platform = z.infer<typeof platformSchema>;

/** An option of a platform picker (the API token form's delivery platform). */
export const platformOptionSchema = z.object({
  platform_id: id,
  platform_name: z.string(),
  status: stored(platformStatuses),
});
export type PlatformOption = z.infer<typeof platformOptionSchema>;
export const platformOptionsSchema = optionsPage(platformOptionSchema);

export { platformSortKeys } from "./enums";

/** A prompt assigned to a platform (the platform page's table). */
export const platformPromptSchema = z.object({
  prompt_id: id,
  prompt_title: z.string(),
  status: stored(promptStatuses),
  is_active: z.boolean(),
  assigned_at: timestamp,
});
export type PlatformPrompt = z.infer<typeof platformPromptSchema>;
export const platformPromptPageSchema = listPage(platformPromptSchema, z.object({}));

/**
 * The variables a platform provides: names (`variableName`: a letter or `_` first, then letters,
 * digits, `_`, `.`, `-`), each once, at most 100. An empty list is null: none declared.
 */
const providedVariables = z
  .array(
    z
      .string({ error: platformsMsg.variableInvalid("") })
      .max(100, platformsMsg.variableInvalid(""))
      .superRefine((name, ctx) => {
        if (!variableName.test(name)) ctx.addIssue({ code: "custom", message: platformsMsg.variableInvalid(name) });
      }),
    { error: platformsMsg.providedVariablesInvalid },
  )
  .max(100, platformsMsg.tooManyVariables)
  .nullable()
  .transform((v) => (v && v.length > 0 ? [...new Set(v)] : null));

const platformFields = {
  platform_name: requiredName({ required: platformsMsg.nameRequired, field: "Platform name" }, 200),
  platform_description: optionalText("Description", 5000, platformsMsg.descriptionInvalid),
  status: z.enum(platformStatuses, { error: platformsMsg.statusInvalid }),
  needs_review: z.boolean({ error: platformsMsg.needsReview }),
  provided_variables: providedVariables,
};

const adopted = "An adopted database's rows can hold null where the console writes a value (docs/adopting.md).";

/**
 * The platform's schemas (`recordSchemas`): a list row and the detail add how many prompts are
 * assigned to it; create (docs/decisions.md: the spec shows no form) takes the name (required,
 * trimmed), the description (trimmed, empty null), status (default active), needs_review (default
 * false) and provided_variables (default none); edit, Archive and Activate (`{ status }` alone)
 * change the fields given, at least one.
 */
export const platformRecords = recordSchemas({
  table: "platforms",
  row: platformSchema,
  rowsOptions: { nullableOnPurpose: { updated_at: adopted, needs_review: adopted } },
  item: platformSchema.extend({ prompt_count: z.number().int() }),
  summary: statusCardsOf(platformStatuses),
  fields: platformFields,
  defaults: { status: "active", needs_review: false, provided_variables: null },
  nothingToUpdate: platformsMsg.nothingToUpdate,
});
export type PlatformListItem = z.infer<typeof platformRecords.item>;
export type PlatformPage = z.infer<typeof platformRecords.list>;
export type PlatformDetail = z.infer<typeof platformRecords.detail>;
export type CreatePlatformInput = z.input<typeof platformRecords.create>;

/** Platform delete: `cascade=true` also removes its prompt assignments; without it a platform with assignments is refused (409). */
export const deletePlatformQuerySchema = z.object({ cascade: queryFlag.optional() });
export const deletePlatformResultSchema = z.object({ ok: z.literal(true), removed_assignments: z.number().int() });
