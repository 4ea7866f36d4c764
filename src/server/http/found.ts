import { notFound } from "./errors";

/**
 * Takes what a read found (a row, a record, null or undefined when there is none) and the entity's
 * "not found" message; returns the value itself when there is one.
 * @throws HttpError 404 `not_found` with `message` when it is null or undefined.
 */
export function requireFound<T>(value: T | null | undefined, message: string): T {
  if (value === null || value === undefined) throw notFound(message);
  return value;
}
