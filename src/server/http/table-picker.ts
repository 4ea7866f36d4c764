import { sql } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";
import { pickerOptions, type OptionsQuery } from "./options";

/** A table a picker reads: its name, its uuid key, its name column and the columns an option carries. */
export type PickerTable = { table: string; key: string; name: string; columns: string[] };

/**
 * Takes a table with a `status` column (`PickerTable`); returns its picker's two reads, as a
 * record's `options` takes them (`mountRecordRoutes`):
 * - `list(db, query)` → `{ items: T[], more, next }`: a page of options by name (`pickerOptions`:
 *   `q` matches the name, `active=true` keeps `status = 'active'`, `after` pages on);
 *   throws HttpError 422 (field `after`) for a cursor the picker did not make;
 * - `one(db, id)` → the option of one row `T` (the current choice), or null when there is none.
 */
export function tablePicker<T extends Record<string, unknown>>(source: PickerTable) {
  const columns = sql.join(
    source.columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  const from = sql`${sql.identifier(source.table)}`;
  const key = sql`${sql.identifier(source.key)}`;
  return {
    list: (db: Database, query: OptionsQuery) =>
      pickerOptions<T>(
        db,
        { columns, from, name: sql`${sql.identifier(source.name)}`, id: key, active: sql`status = 'active'` },
        query,
      ),
    one: async (db: Database, id: string): Promise<T | null> => {
      const [row] = await queryRows<T>(db, sql`select ${columns} from ${from} where ${key} = ${id}`);
      return row ?? null;
    },
  };
}
