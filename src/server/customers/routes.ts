import { z } from "@hono/zod-openapi";
import { optionsQuerySchema } from "../http/options";
import {
  createCustomerSchema,
  customerDetailSchema,
  customerOptionsSchema,
  customerOptionSchema,
  customerSchema,
  updateCustomerSchema,
} from "../../domain/customers";
import { splitDomains } from "../../domain/domains";
import { msg } from "../../domain/messages";
import { mutate } from "../audit";
import { customers } from "../db/schema";
import { HttpError, notFound } from "../http/errors";
import { toJson } from "../http/list";
import { mountList } from "../http/list-routes";
import {
  apiRoute,
  conflictResponse,
  createRouter,
  ifMatchOf,
  invalidResponse,
  jsonBody,
  jsonResponse,
  notFoundResponse,
  versionHeaders,
} from "../http/route";
import type { Tx } from "../audit";
import type { Database } from "../db/client";
import { claimedDomains, customerList, customerOption, customerOptions, getCustomer } from "./queries";
import { recordsOf } from "../db/records";

export const customersBase = "/api/customers";
const json = jsonResponse;
const notFound404 = notFoundResponse(msg.customers.notFound);
const invalid = invalidResponse;
const customerRecords = recordsOf({
  table: customers,
  id: customers.customer_id,
  entity: "customer",
  notFound: msg.customers.notFound,
});
const params = z.object({ customerId: z.guid({ error: msg.customers.notFound }) });

/**
 * GET /api/customers/options?q&active&limit&after → `{ items: [{ customer_id, customer_name, status }], more }`:
 * a picker's options by name, a page at a time (at most `limit`, default 20, max 50; `next` is the
 * cursor of the following page, given back as `after`); `active=true` for
 * the add-user form (SPEC.md §2 "/users/add").
 */
const options = apiRoute(customersBase, "viewer", {
  method: "get",
  path: "/options",
  tags: ["Customers"],
  summary: "Customers for pickers, by name",
  request: { query: optionsQuerySchema },
  responses: { 200: json(customerOptionsSchema, "Customers by name"), ...invalid },
});

/** GET /api/customers/options/{customerId} → one customer as a picker option (the current choice); 404. */
const option = apiRoute(customersBase, "viewer", {
  method: "get",
  path: "/options/{customerId}",
  tags: ["Customers"],
  summary: "One customer as a picker option",
  request: { params },
  responses: { 200: json(customerOptionSchema, "The customer"), ...notFound404 },
});

/** GET /api/customers/{customerId} → the customer with its cards; 404 "Customer not found". */
const detail = apiRoute(customersBase, "viewer", {
  method: "get",
  path: "/{customerId}",
  tags: ["Customers"],
  summary: "One customer",
  request: { params },
  responses: { 200: json(customerDetailSchema, "The customer"), ...notFound404 },
});

/**
 * POST /api/customers `{ customer_name, status?, valid_domains?, confirm_domains? }` → 201 the
 * customer (SPEC.md §5 "Add customer"); domains normalised one per line (docs/editing.md). 422 with
 * field messages (a bad domain is named); 409 `domain_claimed` with `domains` when another customer
 * lists one of them, unless `confirm_domains: true`.
 */
const create = apiRoute(customersBase, "editor", {
  method: "post",
  path: "/",
  tags: ["Customers"],
  summary: "Add a customer",
  request: { body: jsonBody(createCustomerSchema) },
  responses: {
    201: json(customerSchema, "Created"),
    ...invalid,
    ...conflictResponse("domain_claimed: another customer lists one of the domains"),
  },
});

/**
 * PATCH /api/customers/{customerId} `{ customer_name?, status?, valid_domains?, confirm_domains? }`
 * → the customer: Edit, and Archive / Unarchive (`{ status }`, SPEC.md §4); sets updated_at when
 * something changes. If-Match (the updated_at read): 409 `stale` with `current` and `changes` when
 * the customer changed since. 409 `domain_claimed` when a domain it adds is listed by another
 * customer, unless confirmed. 404; 422.
 */
const update = apiRoute(customersBase, "editor", {
  method: "patch",
  path: "/{customerId}",
  tags: ["Customers"],
  summary: "Edit, archive or unarchive a customer",
  request: { params, headers: versionHeaders, body: jsonBody(updateCustomerSchema) },
  responses: {
    200: json(customerSchema, "Updated"),
    ...notFound404,
    ...invalid,
    ...conflictResponse("stale: changed since If-Match; domain_claimed: another customer lists a domain"),
  },
});

/**
 * Refuses domains that other customers already list (409 `domain_claimed`, naming each domain and
 * its customer) unless the operator confirmed them; `known` are domains the customer already had.
 */
async function checkDomains(
  tx: Tx,
  text: string | null | undefined,
  options: { self?: string; known?: string[]; confirmed?: boolean },
) {
  if (options.confirmed || !text) return;
  const added = splitDomains(text).filter((d) => !options.known?.includes(d));
  if (added.length === 0) return;
  const claimed = await claimedDomains(tx as unknown as Database, added, options.self);
  if (claimed.length > 0)
    throw new HttpError(409, "domain_claimed", msg.edit.domainsClaimed(claimed.length), undefined, {
      domains: claimed,
    });
}

export const customersRouter = createRouter();

/** GET /api/customers (SPEC.md §2 "/customers") and its CSV export: docs/lists.md. */
mountList(customersRouter, {
  base: customersBase,
  path: "/",
  access: "viewer",
  tags: ["Customers"],
  summary: "List customers",
  description:
    "Customers with user_count and team_count; `q` searches name, valid domains and status; summary over all customers.",
  list: customerList,
});

customersRouter
  .openapi(options, async (c) => {
    return c.json(await customerOptions(c.var.db, c.req.valid("query")), 200);
  })
  .openapi(option, async (c) => {
    const found = await customerOption(c.var.db, c.req.valid("param").customerId);
    if (!found) throw notFound(msg.customers.notFound);
    return c.json(found, 200);
  })
  .openapi(detail, async (c) => {
    const customer = await getCustomer(c.var.db, c.req.valid("param").customerId);
    if (!customer) throw notFound(msg.customers.notFound);
    return c.json(customer, 200);
  })
  .openapi(create, async (c) => {
    const { confirm_domains, ...input } = c.req.valid("json");
    const created = await mutate(c, async (tx) => {
      await checkDomains(tx, input.valid_domains, { confirmed: confirm_domains });
      return customerRecords.create(tx, input);
    });
    return c.json(toJson(created), 201);
  })
  .openapi(update, async (c) => {
    const { customerId } = c.req.valid("param");
    const { confirm_domains, ...input } = c.req.valid("json");
    const ifMatch = ifMatchOf(c.req.valid("header"));
    // Already so: nothing changes.
    const updated = await mutate(c, async (tx) => {
      const before = await customerRecords.lock(tx, customerId, { ifMatch });
      await checkDomains(tx, input.valid_domains, {
        self: customerId,
        known: splitDomains(before.valid_domains?.toLowerCase()),
        confirmed: confirm_domains,
      });
      return customerRecords.update(tx, before, input);
    });
    return c.json(toJson(updated), 200);
  });
