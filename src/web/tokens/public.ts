/** What other features may use of the tokens feature: the one-time display of a new token. */
export { NewTokenModal, useNow } from "./TokenParts";
