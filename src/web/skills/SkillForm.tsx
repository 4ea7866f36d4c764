import { skillStatuses, skillTypes } from "../../domain/enums";
import { msg } from "../../domain/messages";
import type { CreateSkillInput } from "../../domain/skills";
import type { FieldSpec } from "../components/EntityForm";
import type { RecordKind } from "../components/RecordPage";

/**
 * The skill form (SPEC.md §2 "/skills/add" and "/skills/{skillId}/edit", §5): Skill Name (required,
 * trimmed), Description (trimmed, empty saved null), Type (default manual), Status (default
 * active), Global "(Available across all customers)". Rendered by `EntityForm` with `createSkillSchema`.
 */
export const skillFields: FieldSpec<CreateSkillInput>[] = [
  { kind: "text", name: "skill_name", label: "Skill Name", required: true },
  { kind: "textarea", name: "skill_description", label: "Description" },
  {
    kind: "row",
    fields: [
      { kind: "select", name: "type", label: "Type", options: skillTypes },
      { kind: "select", name: "status", label: "Status", options: skillStatuses },
    ],
  },
  { kind: "checkbox", name: "is_global", label: "Global", hint: msg.skills.globalHint },
];

export const skillDefaults: CreateSkillInput = {
  skill_name: "",
  skill_description: "",
  type: "manual",
  status: "active",
  is_global: false,
};

/** A skill as its detail and edit screens load it (SPEC.md §2, §5 "Skill not found"). */
export const skillRecord: RecordKind = {
  section: msg.nav.skills,
  errorTitle: msg.skills.loadOneError,
  notFound: { title: msg.skills.notFound },
  list: { to: "/skills", label: msg.skills.backToList },
};
