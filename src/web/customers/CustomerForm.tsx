import { Link } from "@tanstack/react-router";
import { customerStatuses, known } from "../../domain/enums";
import { msg } from "../../domain/messages";
import type { CreateCustomerInput, Customer } from "../../domain/customers";
import type { ApiError } from "../api/client";
import type { FieldSpec } from "../components/EntityForm";
import type { RecordKind } from "../components/RecordPage";

/**
 * The customer form (SPEC.md §5 "Add customer"): Customer Name (required, trimmed), Status (the
 * statuses of `customerStatuses`), Valid Domains (one per line or comma-separated, saved null when
 * empty). Rendered by `EntityForm` with `createCustomerSchema`.
 */
export const customerFields: FieldSpec<CreateCustomerInput>[] = [
  { kind: "text", name: "customer_name", label: "Customer Name", required: true },
  { kind: "select", name: "status", label: "Status", options: customerStatuses },
  {
    kind: "textarea",
    name: "valid_domains",
    label: "Valid Domains",
    hint: msg.customers.domainsHint,
    placeholder: "example.com\nexample.io",
  },
];

export const customerDefaults: CreateCustomerInput = { customer_name: "", status: "active", valid_domains: "" };

/** The form's values for a customer being edited (also a stale save's current record on Reload). */
export const customerValues = (
  c: Pick<Customer, "customer_name" | "status" | "valid_domains">,
): CreateCustomerInput => ({
  customer_name: c.customer_name,
  status: known(customerStatuses, c.status),
  valid_domains: c.valid_domains ?? "",
});

type Claimed = { domain: string; customer_id: string; customer_name: string };

/** The 409 `domain_claimed` warning of the customer form: each domain with a link to the customer that lists it. */
export const customerWarnings = {
  domain_claimed: (error: ApiError) => {
    const domains = (error.body as { error?: { domains?: Claimed[] } })?.error?.domains ?? [];
    return (
      <ul className="list-disc pl-5">
        {domains.map((d) => (
          <li key={`${d.domain} ${d.customer_id}`}>
            {msg.edit.domainClaimedBy(d.domain)}{" "}
            <Link to="/customers/$customerId" params={{ customerId: d.customer_id }} className="link" target="_blank">
              {d.customer_name}
            </Link>
          </li>
        ))}
      </ul>
    );
  },
};

/** A customer as its detail page and its Add Team screen load it (SPEC.md §2). */
export const customerRecord: RecordKind = {
  section: msg.nav.customers,
  errorTitle: msg.customers.loadOneError,
  notFound: { title: msg.customers.notFound },
  list: { to: "/customers", label: msg.customers.backToList },
};
