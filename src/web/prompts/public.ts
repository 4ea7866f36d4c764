/** What other features may use of the prompts feature (the review screen's diff). */
export { VariableChanges, VersionDiff } from "./VersionDiff";
