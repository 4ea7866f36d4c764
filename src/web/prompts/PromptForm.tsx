import { queryOptions, useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { known, promptStatuses } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { promptsMsg } from "../../domain/messages/prompts";
import { reviewsMsg } from "../../domain/messages/reviews";
import { undeclaredIn } from "../../domain/prompt-changes";
import { createPromptSchema, type CreatePromptInput, type PromptDetail } from "../../domain/prompts";
import { skillOptionsSchema } from "../../domain/skills";
import { api } from "../api/client";
import type { FieldSpec } from "../components/EntityForm";
import { queryRoots } from "../lib/query-client";
import { SkillPicker } from "../skills/public";
import type { RecordKind } from "../components/RecordPage";
import {
  addScreen,
  editScreen,
  sendValues,
  sendWithVersion,
  needsOneOf,
  type FormState,
  type Screen,
} from "../components/FormScreen";
import { formatRelative } from "../components/format";
import { notify } from "../components/overlays";
import { UndeclaredList } from "./PromptReview";
import { isProposed, promptQuery, useCreatePrompt, useUpdatePrompt } from "./queries";

/**
 * The prompt form (SPEC.md §2 "/prompts/add" and "/prompts/{promptId}/edit", §5): Prompt Title *
 * (trimmed), Skill * (a picker over active skills), Prompt Content (8 rows, trimmed, empty saved
 * null), Status (Active, Inactive, Draft; default Active). Rendered by `EntityForm` with
 * `createPromptSchema`, with `usePromptFormState`'s notice and disabled state.
 */
const promptFields: FieldSpec<CreatePromptInput>[] = [
  { kind: "text", name: "prompt_title", label: "Prompt Title", required: true },
  {
    kind: "picker",
    name: "skill_id",
    label: "Skill",
    required: true,
    picker: (control) => <SkillPicker {...control} activeOnly field />,
  },
  {
    kind: "textarea",
    name: "prompt_value",
    label: "Prompt Content",
    rows: 8,
    mono: true,
    note: (value) => <UndeclaredNote content={value} />,
  },
  { kind: "select", name: "status", label: "Status", options: promptStatuses },
];

/**
 * The `{{variables}}` of the content as typed that a platform the prompt is actively assigned to
 * does not provide (none on the add screen: a new prompt has no platforms yet), named with the
 * platform, as the operator types: before a save, not after it is refused.
 */
function UndeclaredNote({ content }: { content: string }) {
  const { promptId } = useParams({ strict: false });
  const prompt = useQuery({ ...promptQuery(promptId ?? ""), enabled: Boolean(promptId) });
  return <UndeclaredList undeclared={undeclaredIn(content, prompt.data?.platform_variables ?? [])} />;
}

/** Whether any active skill exists (the picker itself asks the server as the user scrolls or types). */
const anyActiveSkillQuery = queryOptions({
  queryKey: [...queryRoots.skills, "options", "any-active"],
  queryFn: ({ signal }) => api("/skills/options", skillOptionsSchema, { query: { active: "true", limit: 1 }, signal }),
});

/**
 * The skills' states above the form (SPEC.md §2 "/prompts/{promptId}/edit"): "Loading skills...",
 * "Error loading skills: {message}", "No active skills found. Please create a skill first."; the
 * form is disabled until a skill can be chosen.
 */
const usePromptFormState = needsOneOf(anyActiveSkillQuery, {
  loading: promptsMsg.loadingSkills,
  error: promptsMsg.skillsLoadError,
  none: promptsMsg.noActiveSkills,
});

/**
 * The edit form's state: the skills' (as the add form); under review "Changes wait for review"
 * under Update Prompt; opened on the operator's own change waiting for review, a notice saying so.
 */
function useEditFormState(): FormState {
  const state = usePromptFormState();
  const { promptId } = useParams({ from: "/prompts/$promptId/edit" });
  const prompt = useQuery(promptQuery(promptId));
  const own = prompt.data?.review_required ? prompt.data.own_proposal : null;
  return {
    ...state,
    notice:
      state.notice ??
      (own ? { tone: "info", text: promptsMsg.editingProposal(formatRelative(own.proposed_at)) } : null),
    submitHint: prompt.data?.review_required ? promptsMsg.reviewHint : undefined,
  };
}

/**
 * The edit form's values: the operator's own change waiting for review when there is one (their
 * save is made on top of it), else the prompt as it is. A stale save's Reload gives the prompt as
 * it is.
 */
const editValues = (p: Partial<PromptDetail>): CreatePromptInput => {
  // A proposal left from when review was on is not what a save now builds on.
  const from = (p.review_required && p.own_proposal) || { ...p, status: p.status ?? "active" };
  return {
    prompt_title: from.prompt_title ?? "",
    skill_id: from.skill_id ?? "",
    prompt_value: from.prompt_value ?? "",
    status: known(promptStatuses, from.status),
  };
};

/** Update Prompt: saved, or (202) sent for review, which a notice says before the screen returns to the prompt. */
function useEditPrompt(id: string) {
  const update = useUpdatePrompt(id);
  return {
    mutateAsync: async (input: Parameters<typeof update.mutateAsync>[0]) => {
      const result = await update.mutateAsync(input);
      if (isProposed(result)) notify(reviewsMsg.proposed);
      return result;
    },
  };
}

/** A prompt as its detail and edit screens load it (SPEC.md §2, §5 "Prompt not found"). */
export const promptRecord: RecordKind = {
  section: navMsg.prompts,
  errorTitle: promptsMsg.loadOneError,
  notFound: { title: promptsMsg.notFound, message: promptsMsg.notFoundText },
  list: { to: "/prompts", label: promptsMsg.backToPrompts },
};

const form = {
  kind: promptRecord,
  texts: { ...promptsMsg, save: promptsMsg.update, saving: promptsMsg.updating },
  schema: createPromptSchema,
  fields: promptFields,
  useFormState: usePromptFormState,
};

/** SPEC.md §2 "/prompts/add": the prompt form; on success opens /prompts, with "Prompt created" and a link to the new prompt. */
export const AddPage: Screen = addScreen({
  ...form,
  useCreate: useCreatePrompt,
  send: sendValues,
  created: (prompt) => ({
    to: { to: "/prompts" },
    link: { label: prompt.prompt_title, to: "/prompts/$promptId", params: { promptId: prompt.prompt_id } },
  }),
});

/**
 * SPEC.md §2 "/prompts/{promptId}/edit": "Edit Prompt" / "Update prompt information and settings",
 * the prompt form prefilled; Cancel back to the prompt; "Update Prompt" ("Updating..."); an error in
 * a red banner; on success back to the prompt. "Prompt not found" for an unknown id (§5).
 */
export const EditPage: Screen = editScreen({
  ...form,
  useId: () => useParams({ from: "/prompts/$promptId/edit" }).promptId,
  query: promptQuery,
  name: (p) => p.prompt_title,
  values: editValues,
  useFormState: useEditFormState,
  useUpdate: useEditPrompt,
  send: sendWithVersion,
  back: (promptId) => ({ to: "/prompts/$promptId", params: { promptId }, label: promptsMsg.backToPrompt }),
});
