/** What other features may use of the tokens feature: the one-time display of a new token, and a token's columns. */
export { NewTokenModal, revokeColumn, revokedOr, tokenNameColumns, useNow } from "./TokenParts";
