import { z } from "zod";
import { optionalText, requiredName } from "./text";
import { id, listPage, stored, timestamp, optionsPage } from "./common";
import { customerStatuses } from "./enums";
import { msg } from "./messages";
import { customerSortKeys } from "./sort-keys";

export { customerSortKeys };

/** A row of `customers` (SPEC.md §3). */
export const customerSchema = z.object({
  customer_id: id,
  customer_name: z.string(),
  valid_domains: z.string().nullable(),
  status: stored(customerStatuses),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Customer = z.infer<typeof customerSchema>;

/** /customers table row: the customer with its derived user_count and team_count. */
export const customerListItemSchema = customerSchema.extend({
  user_count: z.number().int(),
  team_count: z.number().int(),
});
export type CustomerListItem = z.infer<typeof customerListItemSchema>;

/** /customers summary cards, over all customers. */
export const customerSummarySchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  trial: z.number().int(),
  inactive: z.number().int(),
});
export const customerPageSchema = listPage(customerListItemSchema, customerSummarySchema);
export type CustomerPage = z.infer<typeof customerPageSchema>;

export type CustomerSortKey = (typeof customerSortKeys)[number];

/** /customers/{id}: the customer and its cards. */
export const customerDetailSchema = customerSchema.extend({
  stats: z.object({
    total_users: z.number().int(),
    active_users: z.number().int(),
    total_teams: z.number().int(),
    active_teams: z.number().int(),
  }),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** An option of a customer picker (filters, add-user form). */
export const customerOptionSchema = z.object({
  customer_id: id,
  customer_name: z.string(),
  status: stored(customerStatuses),
});
export type CustomerOption = z.infer<typeof customerOptionSchema>;
/** A picker's matches: at most the asked number, and whether more match. */
export const customerOptionsSchema = optionsPage(customerOptionSchema);

/** Add customer (SPEC.md §5): name required and trimmed; domains trimmed, null when empty. */
export const createCustomerSchema = z.strictObject({
  customer_name: requiredName({ required: msg.customers.nameRequired, field: "Customer name" }, 200),
  status: z.enum(customerStatuses, { error: msg.customers.statusInvalid }).default("active"),
  valid_domains: optionalText("Valid domains", 5000, msg.customers.domainsInvalid),
});
export type CreateCustomerInput = z.input<typeof createCustomerSchema>;

/** Archive (inactive) or unarchive (active) a customer. */
export const updateCustomerStatusSchema = z.strictObject({ status: z.enum(customerStatuses) });
