import { z } from "zod";
import { validDomainsField } from "./domains";
import { requiredName } from "./text";
import { counts, id, listPage, stored, rowTimestamps, optionsPage } from "./common";
import { customerSortKeys, customerStatuses } from "./enums";
import { customersMsg } from "./messages/customers";
import { editMsg } from "./messages/edit";
import { describesRows } from "./table-rows";

export { customerSortKeys };

/** A row of `customers` (SPEC.md §3). */
export const customerSchema = z.object({
  customer_id: id,
  customer_name: z.string(),
  valid_domains: z.string().nullable(),
  status: stored(customerStatuses),
  ...rowTimestamps,
});
export type Customer = z.infer<typeof customerSchema>;
/** A row of `customers` is `customerSchema`. */
export const customerRows = describesRows("customers", customerSchema);

/** /customers table row: the customer with its derived user_count and team_count. */
export const customerListItemSchema = customerSchema.extend({
  user_count: z.number().int(),
  team_count: z.number().int(),
});
export type CustomerListItem = z.infer<typeof customerListItemSchema>;

/** /customers summary cards, over all customers. */
export const customerSummarySchema = counts("total", "active", "trial", "inactive");
export const customerPageSchema = listPage(customerListItemSchema, customerSummarySchema);
export type CustomerPage = z.infer<typeof customerPageSchema>;

export type CustomerSortKey = (typeof customerSortKeys)[number];

/** /customers/{id}: the customer and its cards. */
export const customerDetailSchema = customerSchema.extend({
  stats: counts("total_users", "active_users", "total_teams", "active_teams"),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** An option of a customer picker (filters, add-user form). */
export const customerOptionSchema = customerSchema.pick({ customer_id: true, customer_name: true, status: true });
export type CustomerOption = z.infer<typeof customerOptionSchema>;
/** A picker's matches: at most the asked number, and whether more match. */
export const customerOptionsSchema = optionsPage(customerOptionSchema);

const customerName = requiredName({ required: customersMsg.nameRequired, field: "Customer name" }, 200);
const customerStatus = z.enum(customerStatuses, { error: customersMsg.statusInvalid });
const validDomains = validDomainsField(5000, customersMsg.domainsInvalid);
/** Save even when another customer already lists one of the domains (docs/editing.md). */
const confirmDomains = z.boolean({ error: customersMsg.domainsInvalid }).optional();

/**
 * Add customer (SPEC.md §5): name required and trimmed; domains one per line or comma-separated,
 * each normalised and checked as a domain name (src/domain/domains.ts), null when empty;
 * `confirm_domains` saves domains another customer lists.
 */
export const createCustomerSchema = z.strictObject({
  customer_name: customerName,
  status: customerStatus.default("active"),
  valid_domains: validDomains,
  confirm_domains: confirmDomains,
});
export type CreateCustomerInput = z.input<typeof createCustomerSchema>;

/**
 * Edit a customer (name, status, domains with the add rules), and Archive / Unarchive (`{ status }`
 * alone): the fields given change; at least one.
 */
export const updateCustomerSchema = z
  .strictObject({
    customer_name: customerName.optional(),
    status: customerStatus.optional(),
    valid_domains: validDomains,
    confirm_domains: confirmDomains,
  })
  .refine((v) => v.customer_name !== undefined || v.status !== undefined || v.valid_domains !== undefined, {
    message: editMsg.nothingToUpdate,
  });
export type UpdateCustomerInput = z.input<typeof updateCustomerSchema>;
