/** What other features may use of the users feature. */
export { UserTable } from "./UserTable";
export { RolesModal } from "./RolesModal";
