import type { DefaultValues, FieldValues } from "react-hook-form";
import type { FieldSpec } from "./EntityForm";

/** Every field of a form, those inside a `row` too. */
export function flatFields<T extends FieldValues>(fields: FieldSpec<T>[]): Exclude<FieldSpec<T>, { kind: "row" }>[] {
  return fields.flatMap((f) => (f.kind === "row" ? flatFields(f.fields) : [f]));
}

/** A field's value on a new record: text and a picker's id empty, a select its first option, a checkbox off, a date null. */
function emptyValue<T extends FieldValues>(field: Exclude<FieldSpec<T>, { kind: "row" }>): unknown {
  switch (field.kind) {
    case "text":
    case "textarea":
    case "picker":
      return "";
    case "select":
      return field.options[0];
    case "checkbox":
      return false;
    case "checkboxes":
      return [];
    case "date":
      return null;
    default:
      return undefined;
  }
}

/**
 * An add form's values when the form's fields hold the record as the API takes it: each field
 * empty (`emptyValue`), a select on its first option (as a browser's select is), so the add
 * screen's `defaults` is written only where a field starts elsewhere.
 */
export function newValues<T extends FieldValues>(fields: FieldSpec<T>[]): DefaultValues<T> {
  // Object.fromEntries answers string keys: they are exactly the fields' names.
  return Object.fromEntries(flatFields(fields).map((f) => [f.name, emptyValue(f)])) as DefaultValues<T>;
}

/**
 * An edit form's values of `record` when its fields hold the record's columns as they are: each
 * field the record's value of its name; a text field's null empty; a select's value outside its
 * options (an adopted database's) none, so the operator chooses one.
 */
export function recordValues<T extends FieldValues>(fields: FieldSpec<T>[], record: object): DefaultValues<T> {
  const row = new Map(Object.entries(record));
  const valueOf = (f: Exclude<FieldSpec<T>, { kind: "row" }>) => {
    const value: unknown = row.get(f.name);
    if (f.kind === "text" || f.kind === "textarea") return value ?? "";
    if (f.kind === "select") return f.options.find((o) => o === value);
    return value;
  };
  // Object.fromEntries answers string keys: they are exactly the fields' names.
  return Object.fromEntries(flatFields(fields).map((f) => [f.name, valueOf(f)])) as DefaultValues<T>;
}
