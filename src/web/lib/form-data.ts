/**
 * The text a form's field `name` submitted (`new FormData(form)`), or "" when the field is absent
 * or holds a file: the sign-in and two-factor forms read their fields this way.
 */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
