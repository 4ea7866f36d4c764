import { customerStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import type { CreateCustomerInput } from "../../domain/customers";
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

/** A customer as its detail page and its Add Team screen load it (SPEC.md §2). */
export const customerRecord: RecordKind = {
  section: msg.nav.customers,
  errorTitle: msg.customers.loadOneError,
  notFound: { title: msg.customers.notFound },
  list: { to: "/customers", label: msg.customers.backToList },
};
