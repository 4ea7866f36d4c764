/** What other features may use of the skills feature. */
export { SkillLink, ScopeTag } from "./SkillCells";
export { SkillPicker } from "./SkillPicker";
