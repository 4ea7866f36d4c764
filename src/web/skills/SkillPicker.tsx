import { skillOptionSchema, skillOptionsSchema } from "../../domain/skills";
import { optionsPicker } from "../components/EntityPicker";
import { skillKeys } from "./queries";

/**
 * A skill picker over `/api/skills/options` (every skill by name, paged as it scrolls), for the
 * prompt forms (SPEC.md §2 "/prompts/add", "/prompts/{promptId}/edit": `activeOnly`).
 */
export const SkillPicker = optionsPicker({
  path: "/skills/options",
  page: skillOptionsSchema,
  one: skillOptionSchema,
  option: (s) => ({ id: s.skill_id, label: s.skill_name }),
  root: skillKeys.all,
  labels: { label: "Skill", placeholder: "Type a skill name..." },
}).Picker;
