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
 * hono's `compress()` stays behind this for streamed answers (the CSV exports): it pipes a body
 * through a `CompressionStream` and sends it chunked, which costs a web stream, a transfer to the
 * compressor and one socket write per chunk for every answer. At 16 connections with 1,000,200
 * users this answers 10–20 % more requests per second (docs/performance.md).
 *
 * Left as they are: HEAD, answers already encoded, under `threshold` bytes, other content types,
 * clients that do not accept gzip. `Vary: Accept-Encoding` is set on every JSON answer, so that a
 * cache never serves one form to a client asking for the other.
 */
export function compressJson(threshold = 1024): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get("content-type") ?? "";
    // Not `res.body`: reading it turns @hono/node-server's lightweight answer (its body kept as the
    // string `c.json` made) into a web Response, which the server then reads back through a
    // stream reader: a cost on every JSON answer, compressed or not (docs/performance.md).
    if (
      c.req.method === "HEAD" ||
      res.status === 204 ||
      res.status === 304 ||
      res.headers.has("content-encoding") ||
      !/^application\/json\b/i.test(type)
    )
      return;
    const vary = res.headers.get("vary");
    if (!vary || !/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary))
      res.headers.set("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    if (!acceptsGzip(c.req.header("accept-encoding"))) return;
    const length = res.headers.get("content-length");
    if (length !== null && Number(length) < threshold) return;
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
