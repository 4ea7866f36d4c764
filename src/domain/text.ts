import { z } from "zod";
import { maxEmailLength, maxSearchLength } from "./limits";
import { apiMsg, textMsg } from "./messages/api";

export { maxEmailLength, maxSearchLength };

/**
 * Characters that show nothing: zero-width space, joiners and non-joiner, word joiner, invisible
 * operators, byte order mark, soft hyphen, Mongolian vowel separator, combining grapheme joiner and
 * the Hangul fillers. A name made only of these (and whitespace) looks empty, so it is empty.
 */
// An alternation, not a character class: joiners in a class read as combined characters.
const blank =
  "(?:\\s|\\u00AD|\\u034F|\\u115F|\\u1160|\\u180E|\\u200B|\\u200C|\\u200D|\\u2060|\\u2061|\\u2062|\\u2063|\\u2064|\\u3164|\\uFEFF|\\uFFA0)";
/**
 * The pattern, for the OpenAPI document, of what a client may send where the server trims first:
 * `core` (a regular expression source without anchors) with blanks allowed at either end.
 */
const trimmedPattern = (core: string) => `^${blank}*${core}${blank}*$`;
const edges = new RegExp(`^${blank}+|${blank}+$`, "gu");

/**
 * Bidirectional controls (embeddings, overrides, isolates and the directional marks): they make a
 * name display in another order than it is stored ("Trojan Source"), so names refuse them.
 */
export const bidiControls = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** `text` without the whitespace and invisible characters at either end. */
export function trimName(text: string): string {
  return text.replace(edges, "");
}

/**
 * The one rule of every required name (customers, teams, operators; later skills, prompts and
 * platforms): trimmed of whitespace and invisible characters at both ends; empty after that →
 * `required` (the spec's message for that field); longer than `max` characters → "`field` must
 * be at most `max` characters" (forms also stop typing there: `maxLengthOf`); any
 * bidirectional control character → textMsg.bidi. A zod string schema (its JSON schema keeps
 * minLength 1 and maxLength `max`).
 */
export function requiredName(messages: { required: string; field: string }, max: number) {
  return z
    .string({ error: messages.required })
    .overwrite(trimName)
    .min(1, messages.required)
    .max(max, textMsg.tooLong(messages.field, max))
    .refine((v) => !bidiControls.test(v), textMsg.bidi);
}

/**
 * The rule of an optional name (a user's first and last name, job title): trimmed of whitespace
 * and invisible characters, empty saved as null, at most `max` characters, no bidirectional
 * control; text made only of invisible characters is refused (it would look empty but not be).
 */
export function optionalName(field: string, max: number, invalid: string) {
  return z
    .string({ error: invalid })
    .max(max, textMsg.tooLong(field, max))
    .refine((v) => !bidiControls.test(v), textMsg.bidi)
    .refine((v) => trimName(v) !== "" || v.trim() === "", textMsg.bidi)
    .nullish()
    .transform((v) => (v === undefined ? undefined : trimName(v ?? "") || null));
}

/**
 * A simple {something}@{something}.{something} shape (SPEC.md §5 "Add user"), without spaces,
 * control characters (PostgreSQL text cannot hold NUL) or invisible and bidirectional format characters.
 */
export const emailShape = /^[^\s@\p{Cc}\p{Cf}]+@[^\s@\p{Cc}\p{Cf}]+\.[^\s@\p{Cc}\p{Cf}]+$/u;

/**
 * The one rule of every email address the console takes (users, operators, sign-in, the command
 * line): required, trimmed and lowercased, at most `maxEmailLength` characters, then the simple
 * shape. `messages.required` and `messages.invalid` are the field's own (the spec words the user
 * form's); the length message names the limit.
 */
export function emailAddress(
  messages: { required: string; invalid: string } = {
    required: textMsg.emailRequired,
    invalid: textMsg.emailInvalid,
  },
) {
  return (
    z
      .string({ error: messages.required })
      .overwrite(trimName)
      .toLowerCase()
      .min(1, { error: messages.required, abort: true })
      .max(maxEmailLength, { error: textMsg.emailTooLong(maxEmailLength), abort: true })
      .regex(emailShape, messages.invalid)
      // The OpenAPI document states what may be sent, before the trim: the shape with blanks at
      // either end. JSON Schema reads patterns as Unicode expressions (the `u` flag), which this one
      // needs for \p{Cc} and \p{Cf}; the flag is not part of the pattern.
      .meta({ pattern: trimmedPattern(emailShape.source.slice(1, -1)) })
  );
}

/**
 * Text without control characters (Unicode category Cc: U+0000–U+001F and U+007F–U+009F), written
 * as ranges so that the pattern reads the same with or without a regular expression's `u` flag
 * (the OpenAPI document carries it to clients' validators).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const noControlCharacters = /^[^\u0000-\u001F\u007F-\u009F]*$/;

/** The `q` of every list and search: trimmed, at most `maxSearchLength`, no control characters. */
export const searchTextSchema = z
  .string()
  .trim()
  .max(maxSearchLength, apiMsg.searchTooLong)
  .regex(noControlCharacters, apiMsg.malformed)
  // What may be sent, before the trim (OpenAPI document): whitespace at either end is dropped.
  .meta({ pattern: `^\\s*${noControlCharacters.source.slice(1, -1)}\\s*$` });

/**
 * Optional free text (a description, a prompt's content): at most `max` characters ("`field` must
 * be at most `max` characters"), trimmed, empty saved as null (SPEC.md §5). `invalid`: the message
 * for a value that is not text.
 */
export function optionalText(field: string, max: number, invalid: string) {
  return z
    .string({ error: invalid })
    .max(max, textMsg.tooLong(field, max))
    .nullish()
    .transform((v) => v?.trim() || null);
}

/**
 * The longest value a form field's schema accepts, for the field's `maxLength`: the same number the
 * server checks, so typing stops where the server would refuse. Undefined when the schema sets none.
 */
export function maxLengthOf(schema: z.ZodType): number | undefined {
  const inner = innermost(schema);
  const max = "maxLength" in inner ? inner.maxLength : undefined;
  return typeof max === "number" ? max : undefined;
}

/** The schema under its optional, nullable, default and pipe (transform) layers. */
function innermost(schema: z.ZodType): z.ZodType {
  let inner: z.ZodType = schema;
  for (let i = 0; i < 6; i++) {
    // A wrapper's def names its inner schema (`innerType`, or a pipe's `in`); other defs have neither.
    const def: { type: string; innerType?: z.ZodType; in?: z.ZodType } = inner.def;
    const next = def.innerType ?? def.in;
    if (!next) break;
    inner = next;
  }
  return inner;
}

/**
 * The bounds a number schema declares (`min`, `max`, and `step` 1 for an integer), for a number
 * field's input: the limits are the server's, stated once. Undefined where it declares none.
 */
export function numberBoundsOf(schema: z.ZodType): { min?: number; max?: number; step?: number } {
  const n = innermost(schema);
  // An integer schema's own bounds are the safe-integer range: no bound of the entity's.
  const finite = (v: unknown) => (typeof v === "number" && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined);
  return {
    min: finite("minValue" in n ? n.minValue : undefined),
    max: finite("maxValue" in n ? n.maxValue : undefined),
    step: "isInt" in n && n.isInt ? 1 : undefined,
  };
}

/**
 * A stored or submitted value as text: "" for null and undefined, a string as it is, a Date in
 * ISO 8601, an object or array as JSON, a number, bigint or boolean as String() writes it. One
 * rule for the CSV exports, the history's flattened values and the deletion snapshots, so that no
 * value ever reads "[object Object]".
 */
export function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  const scalar = value as number | bigint | boolean | symbol;
  return String(scalar);
}
