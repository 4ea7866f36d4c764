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
import { customers } from "../db/schema";
import { HttpError } from "../http/errors";
import { conflictResponse, createRouter } from "../http/route";
import type { Tx } from "../audit";
import { claimedDomains, customerList, customerPicker, getCustomer } from "./queries";
import { recordsOf } from "../db/records";
import { mountRecordRoutes } from "../http/record-routes";

export const customersBase = "/api/customers";
const customerRecords = recordsOf({
  table: customers,
  id: customers.customer_id,
  entity: "customer",
  notFound: msg.customers.notFound,
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
  const claimed = await claimedDomains(tx, added, options.self);
  if (claimed.length > 0)
    throw new HttpError(409, "domain_claimed", msg.edit.domainsClaimed(claimed.length), undefined, {
      domains: claimed,
    });
}

export const customersRouter = createRouter();

/**
 * GET /api/customers/options?q&active&limit&after → `{ items: [{ customer_id, customer_name,
 * status }], more, next }` for pickers (`active=true` for the add-user form: SPEC.md §2
 * "/users/add"), GET /api/customers/{customerId}/option one of them. GET
 * /api/customers/{customerId} → the customer with its cards. POST /api/customers
 * `{ customer_name, status?, valid_domains?, confirm_domains? }` → 201 the customer (SPEC.md §5
 * "Add customer"); domains normalised one per line (docs/editing.md); 409 `domain_claimed` with
 * `domains` when another customer lists one of them, unless `confirm_domains: true`. PATCH
 * /api/customers/{customerId} (the same fields) → the customer: Edit, and Archive / Unarchive
 * (`{ status }`, SPEC.md §4); 409 `domain_claimed` when a domain it adds is listed by another
 * customer, unless confirmed.
 */
mountRecordRoutes(customersRouter, {
  base: customersBase,
  tag: "Customers",
  records: customerRecords,
  detail: { schema: customerDetailSchema, read: getCustomer },
  create: {
    body: createCustomerSchema,
    schema: customerSchema,
    responses: conflictResponse("domain_claimed: another customer lists one of the domains"),
    write: async (tx, { confirm_domains, ...input }) => {
      await checkDomains(tx, input.valid_domains, { confirmed: confirm_domains });
      return customerRecords.create(tx, input);
    },
  },
  update: {
    summary: "Edit, archive or unarchive a customer",
    body: updateCustomerSchema,
    schema: customerSchema,
    conflict: "stale: changed since If-Match; domain_claimed: another customer lists a domain",
    write: async (tx, before, { confirm_domains, ...input }) => {
      await checkDomains(tx, input.valid_domains, {
        self: before.customer_id,
        known: splitDomains(before.valid_domains?.toLowerCase()),
        confirmed: confirm_domains,
      });
      return customerRecords.update(tx, before, input);
    },
  },
  options: { schema: customerOptionsSchema, item: customerOptionSchema, ...customerPicker },
  list: {
    description:
      "Customers with user_count and team_count; `q` searches name, valid domains and status; summary over all customers.",
    list: customerList,
  },
});
