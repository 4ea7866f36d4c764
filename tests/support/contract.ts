/**
 * The API's traffic held against its own description (/api/openapi.json) by a maintained OpenAPI
 * validator (openapi-backend, on Ajv): every call a test makes through `TestConsole.request` is
 * checked, so the whole API suite is a contract test and the document cannot drift from the server.
 *
 * For each answer of a described operation:
 * - its status must be one the operation declares;
 * - its JSON body must match the schema declared for that status;
 * - a request the server accepted (2xx) must be valid by the document, or the document refuses
 *   what the server takes (the `/u` patterns once refused every search).
 * Requests outside the document (sign-in, /healthz, unknown paths) are not checked.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import addFormats from "ajv-formats";
import OpenAPIBackend, { type Document } from "openapi-backend";

/** The text of a response body, decompressed as its content-encoding says. */
export async function bodyText(res: Response): Promise<string> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const encoding = res.headers.get("content-encoding");
  if (encoding === "gzip") return gunzipSync(bytes).toString("utf8");
  if (encoding === "br") return brotliDecompressSync(bytes).toString("utf8");
  if (encoding === "deflate") return inflateSync(bytes).toString("utf8");
  return bytes.toString("utf8");
}

export type Exchange = {
  method: string;
  /** Path and query, as requested. */
  url: string;
  requestHeaders: Headers;
  requestBody?: string;
  status: number;
  responseType: string;
  responseBody: string;
};

/** A checker of exchanges: the problems found (empty when the exchange keeps to the document). */
export type Contract = (exchange: Exchange) => string[];

/** Contracts by the document's text: every console a test file starts describes the same API, compiled once. */
const cache = new Map<string, Promise<Contract>>();

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const errorText = (errors: Array<{ instancePath?: string; message?: string; params?: unknown }> | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`).join("; ");

type Operation = ReturnType<OpenAPIBackend["router"]["getOperations"]>[number];

/**
 * `api.matchOperation` with the document's operations and path patterns made once: the library
 * flattens the whole document again on every call, which was a quarter of the hostile-input
 * suite's time. The same rules: of the operations with the method whose path matches, the most
 * specific (longest literal part) first; an exact path's literal part is its whole length, so it
 * comes before any template matching the same path, as the library's exact-match step puts it.
 */
export function operationMatcher(
  api: OpenAPIBackend,
): (req: { method: string; path: string }) => Operation | undefined {
  const literal = (path: string) => path.replace(/\{.*?\}/g, "").length;
  const operations = api.router
    .getOperations()
    .map((op) => ({
      op,
      pattern: new RegExp(
        `^${op.path
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join("[^/]+")}$`,
      ),
      specificity: literal(op.path),
    }))
    .sort((a, b) => b.specificity - a.specificity);
  return (req) => {
    // The validator's API root is "/", under which every path is.
    const { method, path } = api.router.normalizeRequest(req as never);
    const normalized = api.router.normalizePath(path);
    return operations.find(({ op, pattern }) => op.method === method && pattern.test(normalized))?.op;
  };
}

/** openapi-backend's validator of `definition`, ready (each operation named "METHOD /path" where it has no operationId). */
export async function validatorOf(definition: Document): Promise<OpenAPIBackend> {
  // The validator finds operations by operationId. A copy through JSON, as a client reads it: the
  // document object can share one array between schemas (an enum), which the validator changes in place.
  const named = JSON.parse(JSON.stringify(definition)) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  for (const [path, operations] of Object.entries(named.paths)) {
    for (const [method, operation] of Object.entries(operations))
      operation.operationId ??= `${method.toUpperCase()} ${path}`;
  }
  const api = new OpenAPIBackend({
    definition: named as unknown as Document,
    validate: true,
    strict: false,
    quick: true,
    ajvOpts: { unicodeRegExp: true, strict: false },
    customizeAjv: (ajv) => addFormats(ajv as never) as never,
  });
  // quick: the document is checked as OpenAPI 3.1 by tests/api/openapi.test.ts; this library checks 3.0 only.
  await api.init();
  return api;
}

/**
 * `definition` with every `enum` marked `x-extensible-enum` opened to any text: what the document
 * promises a client of an adopted database whose rows break the spec's lists (docs/adopting.md).
 */
export function withOpenEnums(definition: Document): Document {
  const open = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(open);
    if (node === null || typeof node !== "object") return node;
    const entries = Object.entries(node).map(([k, v]) => [k, open(v)] as const);
    const extensible = (node as Record<string, unknown>)["x-extensible-enum"] === true;
    return Object.fromEntries(extensible ? entries.filter(([k]) => k !== "enum") : entries);
  };
  return open(definition) as Document;
}

/** The contract of `definition` (compiled once per document, and its validators once per operation). */
export function contractOf(definition: Document): Promise<Contract> {
  const key = JSON.stringify(definition);
  let contract = cache.get(key);
  if (!contract) {
    contract = (async () => {
      const api = await validatorOf(definition);
      const match = operationMatcher(api);
      return (x: Exchange) => {
        const url = new URL(x.url, "http://console");
        const query: Record<string, string | string[]> = {};
        for (const [k, v] of url.searchParams) {
          const prior = query[k];
          query[k] = prior === undefined ? v : Array.isArray(prior) ? [...prior, v] : [prior, v];
        }
        const headers = Object.fromEntries(x.requestHeaders.entries());
        const request = {
          method: x.method.toLowerCase(),
          path: url.pathname,
          query,
          headers,
          body: parseJson(x.requestBody),
        };
        const operation = match(request);
        if (!operation) return [];
        const where = `${x.method} ${url.pathname}${url.search.slice(0, 200)} → ${x.status}`;
        const problems: string[] = [];
        const declared = operation.responses ?? {};
        if (!(String(x.status) in declared) && !("default" in declared)) {
          problems.push(
            `${where}: status ${x.status} is not declared (declared: ${Object.keys(declared).join(", ")}); body ${x.responseBody.slice(0, 200)}`,
          );
        } else if (x.responseType.includes("application/json")) {
          const result = api.validateResponse(parseJson(x.responseBody), operation, x.status);
          if (!result.valid)
            problems.push(
              `${where}: answer does not match its schema: ${errorText(result.errors)}; body ${x.responseBody.slice(0, 300)}`,
            );
        }
        if (x.status >= 200 && x.status < 300) {
          const result = api.validateRequest(request, operation);
          // OpenAPI leaves the query open: a parameter the operation does not declare is ignored by
          // the console (and by clients' validators such as Prism), not refused.
          const errors = (result.errors ?? []).filter(
            (e) => !(e.instancePath === "/query" && e.keyword === "additionalProperties"),
          );
          if (errors.length > 0)
            problems.push(`${where}: the server accepted a request the document refuses: ${errorText(errors)}`);
        }
        return problems;
      };
    })();
    cache.set(key, contract);
  }
  return contract;
}
