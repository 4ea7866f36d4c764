import { gzipSync } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { parseAccept } from "hono/utils/accept";

/** Whether an Accept-Encoding header accepts gzip (by name or `*`, with a q above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const accepts = parseAccept(header);
  const chosen = accepts.find((a) => a.type.toLowerCase() === "gzip") ?? accepts.find((a) => a.type === "*");
  return (chosen?.q ?? 0) > 0;
}

/**
 * Compresses a whole JSON answer (the API's pages, details, errors) with gzip level 1 in one piece,
 * and sends it with its Content-Length in one write. Level 1 makes answers about 7 % larger than
 * level 6 (a users page: 7.5 against 7.0 KB) for less of the event loop's time; gzip on libuv's
 * thread pool measured slower here than on the event loop (a wake-up of another thread per answer).
 *
 * An answer made with `c.json` is encoded where it is made: the request's `c.json` writes the JSON
 * text once into bytes, gzips them when it should, and gives them with their length. Reading an
 * answer back after the handler (as any other answer is, below) builds a web Response of it and
 * reads its body through a stream: on the users page that was 3-4 % of the server's time.
 * Under `readBackUnder` (a path prefix) a middleware inside this one reads answers back after
 * their handler (app.ts `withoutSessionToken` on /api/auth/), so `c.json` leaves them as text
 * there and they are compressed after it, as any other answer.
 *
 * hono's `compress()` stays behind this for streamed answers (the CSV exports): it pipes a body
 * through a `CompressionStream` and sends it chunked, which costs a web stream, a transfer to the
 * compressor and one socket write per chunk for every answer. At 16 connections with 1,000,200
 * users this answers 10–20 % more requests per second (docs/performance.md).
 *
 * Left as they are: HEAD, answers already encoded, under `threshold` bytes, other content types,
 * clients that do not accept gzip. `Vary: Accept-Encoding` is set on every JSON answer, so that a
 * cache never serves one form to a client asking for the other.
 */
export function compressJson({
  threshold = 1024,
  readBackUnder,
}: { threshold?: number; readBackUnder?: string } = {}): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "HEAD" && !(readBackUnder && c.req.path.startsWith(readBackUnder))) {
      const gzip = acceptsGzip(c.req.header("accept-encoding"));
      const json = c.json;
      c.json = ((object: unknown, arg?: number | ResponseInit, headers?: Record<string, string | string[]>) => {
        const text = JSON.stringify(object);
        // What JSON cannot hold (undefined, a function) is left to hono, as before.
        if (text === undefined) return json(object as never, arg as never, headers);
        const body = Buffer.from(text);
        const zipped = gzip && body.byteLength >= threshold;
        const out = zipped ? gzipSync(body, { level: 1 }) : body;
        return c.body(out as Uint8Array<ArrayBuffer>, arg as never, {
          "Content-Type": "application/json",
          ...headers,
          "content-length": String(out.byteLength),
          ...(zipped ? { "content-encoding": "gzip" } : {}),
        });
      }) as typeof c.json;
    }
    await next();
    const res = c.res;
    if (c.req.method === "HEAD" || res.status === 204 || res.status === 304) return;
    // Not `res.body`: reading it turns @hono/node-server's lightweight answer (its body kept as the
    // string or bytes it was made with) into a web Response, which the server then reads back
    // through a stream reader: a cost on every JSON answer, compressed or not (docs/performance.md).
    const type = res.headers.get("content-type") ?? "";
    if (!/^application\/json\b/i.test(type)) return;
    const vary = res.headers.get("vary");
    if (!vary || !/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary))
      res.headers.set("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    // Encoded already, or sized where it was made (`c.json` above): nothing more to do.
    if (res.headers.has("content-encoding") || res.headers.has("content-length")) return;
    if (!acceptsGzip(c.req.header("accept-encoding"))) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    let out: Uint8Array = body;
    if (body.byteLength >= threshold) {
      out = gzipSync(body, { level: 1 });
      headers.set("content-encoding", "gzip");
    }
    headers.set("content-length", String(out.byteLength));
    // Unset first: hono's setter would copy the old answer's headers (its length) onto the new one.
    c.res = undefined;
    c.res = new Response(out as BodyInit, { status: res.status, statusText: res.statusText, headers });
  };
}
