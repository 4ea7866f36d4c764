/**
 * One load run with autocannon over loopback: `connections` clients sending requests back to back
 * for `duration` seconds. Latency percentiles are computed exactly from every response's time
 * (autocannon's own histogram has no p95).
 */
import autocannon from "autocannon";

export type LoadResult = {
  connections: number;
  /** Responses received (any status). */
  responses: number;
  /** Responses per second over the run. */
  rps: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
  /** Connection errors and timeouts (timeouts counted in both). */
  errors: number;
  timeouts: number;
  /** Responses with a status other than 2xx (other than the expected one, when a run names it). */
  non2xx: number;
  /** Mean response size in bytes. */
  bytes: number;
  /** Figures from up to three requests timed one after another (the run had fewer answers). */
  sequential?: boolean;
};

/** The p-th percentile (0–100) of `xs`, nearest rank. */
export function percentile(xs: number[], p: number): number | null {
  if (!xs.length) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Runs the load and resolves with its figures. `timeoutSeconds` bounds a single request: one
 * still unanswered then counts as a timeout. `expectStatus`: the status every answer should have
 * (a 304 case); any 2xx otherwise.
 */
export function runLoad(
  url: string,
  headers: Record<string, string>,
  connections: number,
  durationSeconds: number,
  timeoutSeconds: number,
  expectStatus?: number,
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    let non2xx = 0;
    let bytes = 0;
    const instance = autocannon(
      { url, connections, duration: durationSeconds, timeout: timeoutSeconds, headers, pipelining: 1 },
      (err, result) => {
        if (err) return reject(err);
        const seconds = Math.max(0.001, result.duration ?? durationSeconds);
        resolve({
          connections,
          responses: times.length,
          rps: times.length / seconds,
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          p99: percentile(times, 99),
          max: times.length ? Math.max(...times) : null,
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx,
          bytes: times.length ? Math.round(bytes / times.length) : 0,
        });
      },
    );
    instance.on("response", (_client: unknown, status: number, resBytes: number, responseTime: number) => {
      times.push(responseTime);
      bytes += resBytes;
      if (expectStatus === undefined ? status < 200 || status >= 300 : status !== expectStatus) non2xx++;
    });
  });
}
