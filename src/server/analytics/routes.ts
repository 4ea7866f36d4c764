import { z } from "@hono/zod-openapi";
import { analyticsFigures, analyticsFigureSchema, signInRanges } from "../../domain/analytics";
import { apiRoute, createRouter, invalidResponse, jsonResponse, notFoundResponse } from "../http/route";
import { analyticsFigure } from "./queries";

export const analyticsBase = "/api/analytics";

/**
 * GET /api/analytics/{figure}?days → `{ figure, rows: [{ label, values: { series: number } }], as_of }`
 * (SPEC.md §2 "/analytics"): customers-by-status, sign-ins (users by day of last sign-in over the
 * last `days`: 7, 30 or 90, default 30), top-skills (10 skills with most active team assignments),
 * score-by-type (average assignment score per skill type, percent), comments-per-week (per status,
 * last 12 weeks), prompts-by-status. One SQL aggregate each; `as_of` is when it ran: sign-ins,
 * top-skills, score-by-type and comments-per-week come from a snapshot at most
 * ANALYTICS_REFRESH_SECONDS old (refreshed in the background), the others are live.
 * 422 for an unknown figure or range.
 */
const figure = apiRoute(analyticsBase, "viewer", {
  method: "get",
  path: "/{figure}",
  tags: ["Analytics"],
  summary: "One analytics figure",
  request: {
    params: z.object({ figure: z.enum(analyticsFigures) }),
    query: z.object({
      days: z.coerce
        .number()
        .pipe(z.union(signInRanges.map((d) => z.literal(d)) as [z.ZodLiteral<7>, z.ZodLiteral<30>, z.ZodLiteral<90>]))
        .default(30),
    }),
  },
  responses: {
    200: jsonResponse(analyticsFigureSchema, "The figure's rows"),
    ...notFoundResponse("No such figure"),
    ...invalidResponse,
  },
});

export const analyticsRouter = createRouter().openapi(figure, async (c) => {
  const { figure: name } = c.req.valid("param");
  const { days } = c.req.valid("query");
  return c.json(await analyticsFigure(c.get("db"), name, days, c.get("analytics")), 200);
});
