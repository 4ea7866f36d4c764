import { z } from "zod";
import { editSchema, id, listPage, statusCardsOf, stored, timestamp } from "./common";
import { promptStatuses } from "./enums";
import { platformsMsg } from "./messages/platforms";
import { promptsMsg } from "./messages/prompts";
import { undeclaredVariableSchema } from "./prompt-changes";
import { optionalText, requiredName } from "./text";
import { describesRows } from "./table-rows";

const promptTitle = requiredName({ required: promptsMsg.titleRequired, field: "Prompt title" }, 500);
const promptValue = optionalText("Prompt content", 50_000, promptsMsg.valueInvalid);
const promptStatus = z.enum(promptStatuses, { error: promptsMsg.statusInvalid });
const skillId = z.guid({ error: promptsMsg.skillRequired });

/**
 * Add Prompt from a skill's page (SPEC.md §5 "Prompt create (page and modal)"): title required and
 * trimmed; value trimmed, null when empty; status default active (§4). The skill is the page's.
 */
export const createSkillPromptSchema = z.strictObject({
  prompt_title: promptTitle,
  prompt_value: promptValue,
  status: promptStatus.default("active"),
});
export type CreateSkillPromptInput = z.input<typeof createSkillPromptSchema>;

/**
 * /prompts/add (SPEC.md §5): title required and trimmed ("Prompt title is required"), skill
 * required ("Please select a skill", an active skill), content trimmed (empty saved null), status
 * default active (§4).
 */
export const createPromptSchema = createSkillPromptSchema.extend({ skill_id: skillId });
export type CreatePromptInput = z.input<typeof createPromptSchema>;
export type PromptFormValues = z.output<typeof createPromptSchema>;

/**
 * /prompts/{promptId}/edit (SPEC.md §5 "Prompt edit") and Activate / Archive (`{ status }` alone):
 * the fields given change, with the create rules; at least one field.
 */
export const updatePromptSchema = editSchema(
  { prompt_title: promptTitle, prompt_value: promptValue, skill_id: skillId, status: promptStatus },
  promptsMsg.nothingToUpdate,
);
export type UpdatePromptInput = z.input<typeof updatePromptSchema>;

/**
 * SPEC.md §4 the detail page's one status button: Activate when inactive, otherwise Archive; its
 * target is inactive for active and draft, active for inactive.
 */
export const toggledPromptStatus = (status: string) => (status === "inactive" ? "active" : "inactive");

/** A row of `pedal_prompts` (SPEC.md §3). */
export const promptSchema = z.object({
  prompt_id: id,
  prompt_title: z.string(),
  prompt_value: z.string().nullable(),
  skill_id: id,
  status: stored(promptStatuses),
  created_at: timestamp,
  updated_at: timestamp.nullable(),
});
export type Prompt = z.infer<typeof promptSchema>;
/** A row of `pedal_prompts` is `promptSchema`; an adopted row may lack `updated_at`. */
export const promptRows = describesRows("pedal_prompts", promptSchema, {
  nullableOnPurpose: {
    updated_at:
      "A database the console adopted keeps its own constraints (docs/adopting.md), and SPEC.md §2 shows a prompt's Updated as “Never” when absent.",
  },
});

/**
 * /prompts table row: the prompt with the first 240 characters of its content (the excerpt), its
 * skill's name and its platforms' names (by name).
 */
export const promptListItemSchema = promptSchema.omit({ prompt_value: true }).extend({
  prompt_excerpt: z.string().nullable(),
  skill_name: z.string().nullable(),
  platform_names: z.array(z.string()),
});
export type PromptListItem = z.infer<typeof promptListItemSchema>;

/** /prompts cards (SPEC.md §2: Total, Active, Inactive, Draft), over all prompts. */
export const statusCardsSchema = statusCardsOf(promptStatuses);
export const promptPageSchema = listPage(promptListItemSchema, statusCardsSchema);
export type PromptPage = z.infer<typeof promptPageSchema>;
export { promptSortKeys } from "./enums";

/** /prompts/{promptId}: the prompt, its skill's name and status, and its latest version number. */
export const promptDetailSchema = promptSchema.extend({
  skill_name: z.string().nullable(),
  skill_status: z.string().nullable(),
  version_count: z.number().int(),
  /** The `{{variables}}` of the live content (docs/prompt-review.md). */
  variables: z.array(z.string()),
  /** Variables of the live content that an actively assigned platform does not provide. */
  undeclared: z.array(undeclaredVariableSchema),
  /** Whether a change to the prompt waits for review now (PROMPT_REVIEW and its platforms). */
  review_required: z.boolean(),
  /** How many of its changes wait for review. */
  pending_change_count: z.number().int(),
  /**
   * The reading operator's own edit of it waiting for review (their next save replaces it, made on
   * top of it: docs/prompt-review.md), or null; the edit form opens on it.
   */
  own_proposal: z
    .object({
      change_id: id,
      proposed_at: timestamp,
      prompt_title: z.string(),
      prompt_value: z.string().nullable(),
      status: z.string(),
      skill_id: id,
    })
    .nullable(),
  /**
   * The variables each actively assigned platform that declares them provides, so a form can say
   * which `{{variables}}` of a text being typed a platform does not provide.
   */
  platform_variables: z.array(
    z.object({ platform_id: id, platform_name: z.string(), provided_variables: z.array(z.string()) }),
  ),
});
export type PromptDetail = z.infer<typeof promptDetailSchema>;

/** A row of the prompt's Platform Assignments table (SPEC.md §2, §7 "platform_prompts ... with platform name and description"). */
export const promptPlatformSchema = z.object({
  platform_id: id,
  platform_name: z.string().nullable(),
  platform_description: z.string().nullable(),
  platform_status: z.string().nullable(),
  is_active: z.boolean(),
  assigned_at: timestamp,
});
export type PromptPlatform = z.infer<typeof promptPlatformSchema>;
export const promptPlatformPageSchema = listPage(promptPlatformSchema, z.object({}));

/** A platform the Assign Platform modal offers: not yet assigned to the prompt. */
export const assignablePlatformSchema = z.object({
  platform_id: id,
  platform_name: z.string(),
  platform_description: z.string().nullable(),
  status: z.string(),
});
export type AssignablePlatform = z.infer<typeof assignablePlatformSchema>;
export const assignablePlatformPageSchema = listPage(assignablePlatformSchema, z.object({}));

/** Assign Platform (SPEC.md §4: created with is_active true; one row per platform and prompt). */
export const assignPlatformSchema = z.strictObject({ platform_id: z.guid({ error: platformsMsg.choosePlatform }) });
export const platformAssignmentResultSchema = z.object({
  platform_id: id,
  prompt_id: id,
  is_active: z.boolean(),
  assigned_at: timestamp,
});
/** A row of `platform_prompts` is an assignment as Assign Platform answers it. */
export const platformAssignmentRows = describesRows("platform_prompts", platformAssignmentResultSchema);

/** A version of a prompt in the Versions panel: number, who, when (the texts come with `GET …/versions/{n}`). */
export const promptVersionSchema = z.object({
  version: z.number().int(),
  prompt_title: z.string(),
  restored_from: z.number().int().nullable(),
  operator_email: z.string().nullable(),
  created_at: timestamp,
  /** When the version applied a reviewed change: its author and the operator who approved it (docs/prompt-review.md). */
  proposed_by_email: z.string().nullable().optional(),
  approved_by_email: z.string().nullable().optional(),
});
export type PromptVersion = z.infer<typeof promptVersionSchema>;
export const promptVersionPageSchema = listPage(promptVersionSchema, z.object({}));

/** One version with its full title and content: the source of the diff against the current prompt. */
export const promptVersionDetailSchema = promptVersionSchema.extend({ prompt_value: z.string().nullable() });
export type PromptVersionDetail = z.infer<typeof promptVersionDetailSchema>;
