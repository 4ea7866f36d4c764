import { useParams } from "@tanstack/react-router";
import { skillStatuses, skillTypes } from "../../domain/enums";
import { navMsg, timings } from "../../domain/messages/common";
import { skillsMsg } from "../../domain/messages/skills";
import { type CreateSkillInput, skillRecords } from "../../domain/skills";
import type { FieldSpec } from "../components/EntityForm";
import { addScreen, editScreen, sendValues, sendWithVersion, type Screen } from "../components/FormScreen";
import type { RecordKind } from "../components/RecordPage";
import { skillQuery, useCreateSkill, useUpdateSkill } from "./queries";

/**
 * The skill form (SPEC.md §2 "/skills/add" and "/skills/{skillId}/edit", §5): Skill Name (required,
 * trimmed), Description (trimmed, empty saved null), Type (default manual), Status (default
 * active), Global "(Available across all customers)". Rendered by `EntityForm` with `skillRecords.create`.
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
  { kind: "checkbox", name: "is_global", label: "Global", hint: skillsMsg.globalHint },
];

/** A skill as its detail and edit screens load it (SPEC.md §2, §5 "Skill not found"). */
export const skillRecord: RecordKind = {
  section: navMsg.skills,
  errorTitle: skillsMsg.loadOneError,
  notFound: { title: skillsMsg.notFound },
  list: { to: "/skills", label: skillsMsg.backToList },
};

const form = { kind: skillRecord, texts: skillsMsg, schema: skillRecords.create, fields: skillFields };

/** SPEC.md §2 "/skills/add": the skill form; "Skill created successfully!", then /skills after 1.5 s (§9). */
export const AddPage: Screen = addScreen({
  ...form,
  useCreate: useCreateSkill,
  send: sendValues,
  created: () => ({ to: { to: "/skills" }, afterMs: timings.afterSkillChangeMs }),
});

/**
 * SPEC.md §2 "/skills/{skillId}/edit": the skill form prefilled; "Skill updated successfully!",
 * then back to the skill after 1.5 s (§9); "Skill ID is missing" without an id (§5); "Skill not
 * found" for an unknown one.
 */
export const EditPage: Screen = editScreen({
  ...form,
  useId: () => useParams({ from: "/skills/$skillId/edit" }).skillId,
  missing: skillsMsg.idMissing,
  query: skillQuery,
  name: (s) => s.skill_name,
  useUpdate: useUpdateSkill,
  send: sendWithVersion,
  back: (skillId) => ({ to: "/skills/$skillId", params: { skillId }, label: skillsMsg.backToSkill }),
  afterMs: timings.afterSkillChangeMs,
});
