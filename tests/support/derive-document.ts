/**
 * Cases read from the app's own OpenAPI document (`/api/openapi.json`), for the suites that derive
 * what they check from the routes instead of keeping a list per entity: the saves that take
 * If-Match, the text field such a save can change, and request bodies that satisfy an operation's
 * JSON Schema.
 */
import { randomUUID } from "node:crypto";
import { fillPath, paramsOf, rowIdOf, tableKeyedBy, type Rows } from "./derive-rows";
import type { JsonSchema, OpenApiDocument, Operation } from "./route-requests";

export type { OpenApiDocument };

/** Every operation of the document, with its method (upper case) and path. */
export function operationsOf(doc: OpenApiDocument): Array<{ method: string; path: string; op: Operation }> {
  // The sign-in routes (better-auth's, declared with no security) have tests of their own.
  return Object.entries(doc.paths)
    .filter(([path]) => !path.startsWith("/api/auth/"))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
}

/** The JSON body schema of an operation, or undefined when it takes none. */
export const bodySchemaOf = (op: Operation): JsonSchema | undefined =>
  op.requestBody?.content?.["application/json"]?.schema;

/** Whether a JSON Schema type includes `type` (`"string"` or `["string", "null"]`). */
const typeIncludes = (schema: JsonSchema, type: string) => [schema.type].flat().includes(type);

/**
 * The saves that check a version (docs/editing.md): every PATCH that declares the `if-match` header
 * parameter, with its JSON body schema.
 */
export function versionedEdits(doc: OpenApiDocument): Array<{ path: string; body: JsonSchema }> {
  return operationsOf(doc)
    .filter(({ method }) => method === "PATCH")
    .filter(({ op }) => (op.parameters ?? []).some((p) => p.in === "header" && p.name.toLowerCase() === "if-match"))
    .map(({ path, op }) => ({ path, body: bodySchemaOf(op) ?? {} }));
}

/**
 * The field a one-field edit can change and read back as sent: the first property of the body that
 * is free text (a string with no enum, format or pattern) and a column of the record's table
 * (`columns`), so that the saved value can be read in the table too.
 * @throws Error when the body has no such field.
 */
export function textFieldOf(body: JsonSchema, columns: string[]): { name: string; maxLength: number } {
  for (const [name, prop] of Object.entries(body.properties ?? {})) {
    if (!typeIncludes(prop, "string") || prop.enum || prop.format || prop.pattern) continue;
    if (!columns.includes(name)) continue;
    return { name, maxLength: prop.maxLength ?? 200 };
  }
  throw new Error(`no free-text field that is a column (${columns.join(", ")}) in ${JSON.stringify(body)}`);
}

/** A short unique tag (8 hex digits): made-up values that must not collide with another row's. */
export const uniqueTag = () => randomUUID().slice(0, 8);

/**
 * A value of free text `label` (a field's name) that is unique and fits `maxLength`: "<label>
 * <tag>", with the label cut to fit.
 */
export function uniqueText(label: string, maxLength = 200): string {
  const tag = uniqueTag();
  return `${label.slice(0, Math.max(1, maxLength - tag.length - 1))} ${tag}`.slice(0, maxLength);
}

/**
 * A body that satisfies `schema` with its required properties only, each of the simplest valid
 * kind: a unique text of the allowed length, the first enum value, the default when there is one,
 * the minimum of a number, `false`, the fewest array items. A property `ids` names gets that value
 * (uuid references, an e-mail as the test wants it written).
 * @throws Error for a schema this cannot satisfy (a pattern on a required text: give it in `ids`).
 */
export function sampleBody(schema: JsonSchema, ids: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of schema.required ?? [])
    body[name] = name in ids ? ids[name] : sampleValue(name, schema.properties![name]);
  return body;
}

function sampleValue(name: string, schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sampleValue(name, schema.anyOf.find((s) => !typeIncludes(s, "null")) ?? schema.anyOf[0]);
  if (typeIncludes(schema, "string")) {
    if (schema.pattern || (schema.format && schema.format !== "password"))
      throw new Error(`${name}: a ${schema.format ?? "patterned"} text has no made-up value; pass it in ids`);
    const text = uniqueText(name.replace(/_/g, " "), schema.maxLength ?? 200);
    return text.padEnd(schema.minLength ?? 1, "x");
  }
  if (typeIncludes(schema, "integer") || typeIncludes(schema, "number")) return schema.minimum ?? 1;
  if (typeIncludes(schema, "boolean")) return false;
  if (typeIncludes(schema, "array"))
    return Array.from({ length: schema.minItems ?? 0 }, () => sampleValue(name, schema.items ?? {}));
  if (typeIncludes(schema, "object")) return sampleBody(schema);
  throw new Error(`${name}: no sample for ${JSON.stringify(schema)}`);
}

/** What `referencedId` and `sampleBodyReferencing` need of a running console. */
export type ConsoleCalls = {
  rows: Rows;
  /** POST of a JSON body as an operator who may create anything: status and parsed body. */
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
};

/**
 * The id of a real row of the table a uuid field or path parameter names (`customer_id` or
 * `customerId`: customers, schema.ts conventions): its first row by key or, when the table is
 * empty, a row created through the document's POST of its collection (the path `P` whose child
 * `P/{param}` names that table) with a sample body.
 * @throws Error when the table is empty and the document has no such POST, or it fails.
 */
export async function referencedId(doc: OpenApiDocument, field: string, api: ConsoleCalls): Promise<string> {
  const { name, key } = tableKeyedBy(field);
  try {
    return await rowIdOf(api.rows, field);
  } catch {
    // An empty table: created through the API below.
  }
  const collection = Object.keys(doc.paths).find((path) => {
    const child = /^(.*)\/\{([^}/]+)\}$/.exec(path);
    return child !== null && child[1] in doc.paths && doc.paths[child[1]].post && tableOf(child[2]) === name;
  });
  if (!collection) throw new Error(`no row in ${name} for ${field}, and no POST of its collection to make one`);
  const parent = collection.replace(/\/\{[^}/]+\}$/, "");
  const body = await sampleBodyReferencing(doc, bodySchemaOf(doc.paths[parent].post!) ?? {}, api);
  const created = await api.post(await filledPath(doc, parent, api), body);
  if (created.status !== 201 || typeof created.body?.[key] !== "string")
    throw new Error(
      `POST ${parent} ${JSON.stringify(body)} made no ${name} row: ${created.status} ${JSON.stringify(created.body)}`,
    );
  return created.body[key];
}

/** The table a parameter names, or undefined when it names none (`tableKeyedBy` would throw). */
function tableOf(param: string): string | undefined {
  try {
    return tableKeyedBy(param).name;
  } catch {
    return undefined;
  }
}

/** `path` with each parameter replaced by a real row's id (`referencedId`). */
export async function filledPath(doc: OpenApiDocument, path: string, api: ConsoleCalls): Promise<string> {
  const ids: Record<string, string> = {};
  for (const param of paramsOf(path)) ids[param] = await referencedId(doc, param, api);
  return fillPath(path, ids);
}

/**
 * `sampleBody` of `schema` whose required uuid fields name real rows (`referencedId`), and
 * `given` values where it names them.
 */
export async function sampleBodyReferencing(
  doc: OpenApiDocument,
  schema: JsonSchema,
  api: ConsoleCalls,
  given: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const ids: Record<string, unknown> = { ...given };
  for (const name of schema.required ?? []) {
    if (!(name in ids) && schema.properties?.[name]?.format === "uuid") ids[name] = await referencedId(doc, name, api);
  }
  return sampleBody(schema, ids);
}
