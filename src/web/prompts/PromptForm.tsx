import { useQuery } from "@tanstack/react-query";
import { promptStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import type { CreatePromptInput } from "../../domain/prompts";
import { skillOptionsSchema } from "../../domain/skills";
import { api, errorMessage } from "../api/client";
import type { FieldSpec, FormNotice } from "../components/EntityForm";
import { queryRoots } from "../lib/query-client";
import { SkillPicker } from "../skills/public";
import type { RecordKind } from "../components/RecordPage";

/**
 * The prompt form (SPEC.md §2 "/prompts/add" and "/prompts/{promptId}/edit", §5): Prompt Title *
 * (trimmed), Skill * (a picker over active skills), Prompt Content (8 rows, trimmed, empty saved
 * null), Status (Active, Inactive, Draft; default Active). Rendered by `EntityForm` with
 * `createPromptSchema`, with `usePromptFormState`'s notice and disabled state.
 */
export const promptFields: FieldSpec<CreatePromptInput>[] = [
  { kind: "text", name: "prompt_title", label: "Prompt Title", required: true },
  {
    kind: "picker",
    name: "skill_id",
    label: "Skill",
    required: true,
    picker: (control) => <SkillPicker {...control} activeOnly field />,
  },
  { kind: "textarea", name: "prompt_value", label: "Prompt Content", rows: 8, mono: true },
  { kind: "select", name: "status", label: "Status", options: promptStatuses },
];

export const promptDefaults: CreatePromptInput = { prompt_title: "", skill_id: "", prompt_value: "", status: "active" };

/** Whether any active skill exists (the picker itself asks the server as the user scrolls or types). */
const anyActiveSkillQuery = {
  queryKey: [...queryRoots.skills, "options", "any-active"],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api("/skills/options", skillOptionsSchema, { query: { active: "true", limit: 1 }, signal }),
};

/**
 * The skills' states above the form (SPEC.md §2 "/prompts/{promptId}/edit"): "Loading skills...",
 * "Error loading skills: {message}", "No active skills found. Please create a skill first."; the
 * form is disabled until a skill can be chosen.
 */
export function usePromptFormState(): { notice: FormNotice | null; disabled: boolean } {
  const skills = useQuery(anyActiveSkillQuery);
  const none = skills.isSuccess && skills.data.items.length === 0;
  const notice: FormNotice | null = skills.isPending
    ? { tone: "info", text: msg.prompts.loadingSkills }
    : skills.isError
      ? { tone: "error", text: msg.prompts.skillsLoadError(errorMessage(skills.error)) }
      : none
        ? { tone: "warning", text: msg.prompts.noActiveSkills }
        : null;
  return { notice, disabled: !skills.isSuccess || none };
}

/** A prompt as its detail and edit screens load it (SPEC.md §2, §5 "Prompt not found"). */
export const promptRecord: RecordKind = {
  section: msg.nav.prompts,
  errorTitle: msg.prompts.loadOneError,
  notFound: { title: msg.prompts.notFound, message: msg.prompts.notFoundText },
  list: { to: "/prompts", label: msg.prompts.backToPrompts },
};
