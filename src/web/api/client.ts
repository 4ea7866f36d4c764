import type { z } from "zod";

/** An API answer that was not 2xx, carrying the server's `{ error: { code, message, fields? } }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    /** The whole JSON answer (a 409 may carry the record as it is now). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

/** Builds `/api/...?...`, leaving out empty parameters. */
export function apiUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const qs = params.toString();
  return `/api${path}${qs ? `?${qs}` : ""}`;
}

let onUnauthorized: (() => void) | undefined;
/** Registers what to do when the session has ended (any 401): the auth provider refreshes it. */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

let onReauthenticate: (() => Promise<boolean>) | undefined;
/**
 * Registers how the operator confirms it is them when the API asks (403
 * `reauthentication_required`, docs/identity.md): the shell's dialog, resolving true once
 * confirmed (the request is then sent once more) or false when the operator cancels.
 */
export function setReauthenticationHandler(handler: (() => Promise<boolean>) | undefined) {
  onReauthenticate = handler;
}

/**
 * Calls the API and parses the JSON answer with `schema`, so the types come from the same zod
 * schemas the server answers with.
 * @throws ApiError for a non-2xx answer (or a network failure, status 0).
 */
export async function api<S extends z.ZodType>(
  path: string,
  schema: S,
  init: {
    method?: string;
    body?: unknown;
    query?: Query;
    signal?: AbortSignal;
    /** The record's `updated_at` as read: a save of a record changed since answers 409 `stale`. */
    ifMatch?: string;
    /** Sent again after the operator confirmed it is them: not asked twice. */
    confirmed?: boolean;
  } = {},
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetch(apiUrl(path, init.query), {
      method: init.method ?? "GET",
      headers: {
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...(init.ifMatch ? { "if-match": init.ifMatch } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
      signal: init.signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiError(0, "network", "Cannot reach the server. Check your connection and try again.");
  }
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) {
    if (response.status === 401) onUnauthorized?.();
    const error = (data as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | undefined)
      ?.error;
    // An admin action on credentials asks the operator to confirm it is them, then goes through.
    if (response.status === 403 && error?.code === "reauthentication_required" && onReauthenticate && !init.confirmed)
      if (await onReauthenticate()) return api(path, schema, { ...init, confirmed: true });
    throw new ApiError(
      response.status,
      error?.code ?? "http_" + response.status,
      error?.message ?? `Request failed (${response.status})`,
      error?.fields,
      data,
    );
  }
  return schema.parse(data);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
