/** What other features may use of the audit feature. */
export { auditEntityLink } from "./links";
