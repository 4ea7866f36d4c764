import { z } from "zod";
import { promptStatuses } from "./enums";
import { msg } from "./messages";
import { requiredName } from "./text";

/**
 * Add Prompt from a skill's page (SPEC.md §5 "Prompt create (page and modal)"): title required and
 * trimmed; value trimmed, null when empty; status default active (§4). The skill is the page's.
 */
export const createSkillPromptSchema = z.strictObject({
  prompt_title: requiredName({ required: msg.prompts.titleRequired, tooLong: msg.prompts.titleTooLong }, 500),
  prompt_value: z
    .string({ error: msg.prompts.valueInvalid })
    .max(50_000, msg.prompts.valueTooLong)
    .nullish()
    .transform((v) => v?.trim() || null),
  status: z.enum(promptStatuses, { error: msg.prompts.statusInvalid }).default("active"),
});
export type CreateSkillPromptInput = z.input<typeof createSkillPromptSchema>;
