/** Platforms' bulk actions are declared beside their routes; this name is kept for the app's registry. */
export { platformBulkActions } from "./routes";
