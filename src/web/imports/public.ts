/** What other features may use of the import screens: the CSV import of users, routed at /users/import. */
export { default as ImportPage } from "./ImportPage";
