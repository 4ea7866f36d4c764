import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { configConflictSchema, customerConfigSchema, saveConfigSchema } from "../../domain/config";
import { msg } from "../../domain/messages";
import { mutate } from "../audit";
import { requireFound } from "../http/found";
import { mountList } from "../http/list-routes";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import { configChangeList, getConfig, saveConfig, StaleConfigError } from "./queries";

export const configBase = "/api/config";
const params = z.object({ customerId: z.guid({ error: msg.customers.notFound }) });

/**
 * GET /api/config/{customerId} → `{ customer_id, customer_name, customer_status, values, version,
 * updated_at, updated_by, usage: { users, teams } }` (SPEC.md §2 "/config"): the saved values, or
 * the defaults with version 0; usage from the maintained counters. 404 "Customer not found".
 */
const detail = apiRoute(configBase, "viewer", {
  method: "get",
  path: "/{customerId}",
  tags: ["Configuration"],
  summary: "A customer's configuration",
  request: { params },
  responses: {
    200: jsonResponse(customerConfigSchema, "The configuration"),
    ...notFoundResponse(msg.customers.notFound),
  },
});

/**
 * PATCH /api/config/{customerId} `{ ...values, version }` → the saved configuration (Save Changes,
 * SPEC.md §2 "/config"). Every value is validated (limits positive whole numbers, session timeout
 * 5–1440 minutes; 422 with a message per field); the row, one history row per changed field and
 * the audit row are written in one transaction. A `version` other than the current one is stale:
 * 409 `{ error, current }` naming who saved and when, with the configuration as it is now.
 */
const save = apiRoute(configBase, "editor", {
  method: "patch",
  path: "/{customerId}",
  tags: ["Configuration"],
  summary: "Save a customer's configuration",
  request: { params, body: jsonBody(saveConfigSchema) },
  responses: {
    200: jsonResponse(customerConfigSchema, "Saved"),
    409: jsonResponse(configConflictSchema, "Someone saved since this version was read"),
    ...notFoundResponse(msg.customers.notFound),
    ...invalidResponse,
  },
});

export const configRouter = createRouter();

/** GET /api/config/{customerId}/changes (Recent changes, newest first) and its CSV export; 404 "Customer not found". */
mountList(configRouter, {
  base: configBase,
  path: "/{customerId}/changes",
  access: "viewer",
  tags: ["Configuration"],
  summary: "Changes of a customer's configuration",
  description:
    "One row per field a save changed: field (`features.<name>` for a feature), value before and after as text, who and when; newest first.",
  list: configChangeList,
  params,
  scope: {
    where: (p: { customerId: string }) => sql`h.customer_id = ${p.customerId}`,
    exists: (p: { customerId: string }) => sql`exists (select 1 from customers where customer_id = ${p.customerId})`,
    notFound: msg.customers.notFound,
  },
});

configRouter
  .openapi(detail, async (c) =>
    c.json(requireFound(await getConfig(c.get("db"), c.req.valid("param").customerId), msg.customers.notFound), 200),
  )
  .openapi(save, async (c) => {
    const { customerId } = c.req.valid("param");
    const { version, ...values } = c.req.valid("json");
    const email = c.get("session")?.user.email ?? null;
    try {
      const saved = await mutate(c, async (tx) => {
        const result = requireFound(await saveConfig(tx, customerId, values, version, email), msg.customers.notFound);
        const changed = Object.keys(result.after).length > 0;
        return {
          result: result.config,
          audit: changed
            ? [
                {
                  action: "update",
                  entity: "customer_config",
                  entity_id: customerId,
                  before: result.before,
                  after: result.after,
                },
              ]
            : [],
        };
      });
      return c.json(saved, 200);
    } catch (err) {
      if (!(err instanceof StaleConfigError)) throw err;
      const current = err.current;
      const when = current.updated_at ?? new Date().toISOString();
      const message = msg.config.stale(current.updated_by ?? msg.config.staleSomeone, when);
      return c.json({ error: { code: "conflict", message }, current }, 409);
    }
  });
