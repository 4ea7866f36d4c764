import type { Target } from "../lib/target";

/**
 * How the rows of one kind of record are told apart and opened wherever a list shows them: `key`
 * (its id), `label` (its name, as the row's selection box is read: "Select Acme"; the key when
 * none) and `link` (the record a row opens; none: rows open nothing). Declared once per list.
 */
export type RecordRef<I> = {
  key: (row: I) => string;
  label?: (row: I) => string;
  link?: (row: I) => Target;
};
