/** What other features may use of the operators feature. */
export { operatorListQuery } from "./queries";
