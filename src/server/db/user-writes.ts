/**
 * The one way a user is created, shared by the console's Add user (POST /api/users) and directory
 * sync (SCIM POST /Users): every rule of SPEC.md §5 "Add user" holds on both paths.
 */
import { eq, sql } from "drizzle-orm";
import { emailDomain, splitDomains } from "../../domain/domains";
import type { UserStatus } from "../../domain/enums";
import { msg } from "../../domain/messages";
import type { AuditEntry, Tx } from "../audit";
import { HttpError, notFound } from "../http/errors";
import { toJson } from "../http/list";
import { customers, users_data } from "./schema";

/**
 * Refuses (409 `domain_mismatch`, field email, `customer_domains`) an e-mail whose domain is not
 * one of the customer's valid domains, when the customer lists any and the caller did not confirm.
 */
export function checkEmailDomain(email: string, customerDomains: string | null, confirmed?: boolean) {
  const domains = splitDomains(customerDomains?.toLowerCase());
  const domain = emailDomain(email);
  if (confirmed || domains.length === 0 || domains.includes(domain)) return;
  const message = msg.edit.domainMismatch(domain);
  throw new HttpError(409, "domain_mismatch", message, { email: message }, { customer_domains: domains });
}

/** A new user's fields: `email` already trimmed and lower-cased. */
export type NewUser = {
  email: string;
  customer_id: string;
  first_name?: string | null;
  last_name?: string | null;
  job_title?: string | null;
  status?: UserStatus;
};

/**
 * Inserts a user of an active customer, with its audit entry. Errors (HttpError): 404 unknown
 * customer; 422 a customer that is not active; 409 `domain_mismatch` as `checkEmailDomain` says
 * (unless `confirmDomain`); 409 `conflict` (field email) when any user already has the e-mail,
 * compared case-insensitively.
 */
export async function insertUser(
  tx: Tx,
  input: NewUser,
  options: { confirmDomain?: boolean; now?: Date } = {},
): Promise<{ row: typeof users_data.$inferSelect; audit: AuditEntry[] }> {
  // Share-locked so that the customer cannot be archived between this check and the insert.
  const [customer] = await tx
    .select({ status: customers.status, valid_domains: customers.valid_domains })
    .from(customers)
    .where(eq(customers.customer_id, input.customer_id))
    .for("share");
  if (!customer) throw notFound(msg.customers.notFound);
  if (customer.status !== "active") {
    throw new HttpError(422, "validation_failed", msg.users.customerNotActive, {
      customer_id: msg.users.customerNotActive,
    });
  }
  checkEmailDomain(input.email, customer.valid_domains, options.confirmDomain);
  const now = options.now ?? new Date();
  // A taken email is refused here, and by the unique index on lower(email) for a race (an adopted
  // database whose rows share an email has no such index: docs/adopting.md): a conflict inserts
  // nothing instead of failing the transaction.
  const [taken] = await tx
    .select({ id: users_data.user_id })
    .from(users_data)
    .where(sql`lower(${users_data.email}) = lower(${input.email})`)
    .limit(1);
  if (taken) throw new HttpError(409, "conflict", msg.users.emailTaken, { email: msg.users.emailTaken });
  const [row] = await tx
    .insert(users_data)
    .values({ ...input, created_at: now, updated_at: now })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new HttpError(409, "conflict", msg.users.emailTaken, { email: msg.users.emailTaken });
  return { row, audit: [{ action: "create", entity: "user", entity_id: row.user_id, after: toJson(row) }] };
}
