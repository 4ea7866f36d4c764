/**
 * Undo and restore (docs/undo-and-restore.md), shared by every feature that deletes: a delete takes
 * its rows with `takeRows` (or reads a kept row with `readRows`) and keeps them with
 * `recordDeletion` in its own transaction; `/api/deleted` lists and restores them.
 */
export {
  readRows,
  recordDeletion,
  recordName,
  snapshotTables,
  takeRows,
  type Cascade,
  type CascadeTable,
  type SnapshotRow,
  type SnapshotTable,
} from "./snapshot";
export { purgeDeletedRecords, schedulePurge } from "./purge";
export { reviewRestoredAssignments, type AssignmentReview } from "./restore";
