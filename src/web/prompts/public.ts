/** What other features may use of the prompts feature. */
export { VersionDiff } from "./VersionDiff";
