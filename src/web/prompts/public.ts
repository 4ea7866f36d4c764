/** What other features may use of the prompts feature (the review screen's diff and variable warnings). */
export { VariableChanges, VersionDiff } from "./VersionDiff";
export { UndeclaredList } from "./PromptReview";
export { useUnassignLink } from "./unassign";
export { PlatformNames } from "./PromptCells";
