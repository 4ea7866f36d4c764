import { Link, useParams, linkOptions } from "@tanstack/react-router";
import { customerStatuses, known } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { customersMsg } from "../../domain/messages/customers";
import { editMsg } from "../../domain/messages/edit";
import { createCustomerSchema, type CreateCustomerInput, type Customer } from "../../domain/customers";
import type { ApiError } from "../api/client";
import type { FieldSpec, SaveOptions } from "../components/EntityForm";
import { addScreen, editScreen, type Screen } from "../components/FormScreen";
import type { RecordKind } from "../components/RecordPage";
import { customerQuery, useCreateCustomer, useUpdateCustomer } from "./queries";

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
    hint: customersMsg.domainsHint,
    placeholder: "example.com\nexample.io",
  },
];

/** The form's values for a customer being edited (also a stale save's current record on Reload). */
const customerValues = (c: Pick<Customer, "customer_name" | "status" | "valid_domains">): CreateCustomerInput => ({
  customer_name: c.customer_name,
  status: known(customerStatuses, c.status),
  valid_domains: c.valid_domains ?? "",
});

type Claimed = { domain: string; customer_id: string; customer_name: string };

/** The 409 `domain_claimed` warning of the customer form: each domain with a link to the customer that lists it. */
const customerWarnings = {
  domain_claimed: (error: ApiError) => {
    const domains = (error.body as { error?: { domains?: Claimed[] } })?.error?.domains ?? [];
    return (
      <ul className="list-disc pl-5">
        {domains.map((d) => (
          <li key={`${d.domain} ${d.customer_id}`}>
            {editMsg.domainClaimedBy(d.domain)}{" "}
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
  section: navMsg.customers,
  errorTitle: customersMsg.loadOneError,
  notFound: { title: customersMsg.notFound },
  list: { to: "/customers", label: customersMsg.backToList },
};

const form = {
  kind: customerRecord,
  texts: customersMsg,
  schema: createCustomerSchema,
  fields: customerFields,
  warnings: customerWarnings,
};

/** A save: the form's values, with the domains another customer lists confirmed when the operator said so. */
const send = ({ confirm_domains: _c, ...values }: CreateCustomerInput, { confirmed }: SaveOptions) => ({
  ...values,
  confirm_domains: confirmed.includes("domain_claimed") || undefined,
});

/**
 * SPEC.md §2 "/customers/add" and §5 "Add customer". On success opens the new customer, with
 * "Customer created" and a link to it.
 */
export const AddPage: Screen = addScreen({
  ...form,
  defaults: { customer_name: "", status: "active", valid_domains: "" },
  useCreate: useCreateCustomer,
  send,
  created: (customer) => {
    const page = linkOptions({ to: "/customers/$customerId", params: { customerId: customer.customer_id } });
    return { to: page, link: { label: customer.customer_name, ...page } };
  },
});

/**
 * /customers/{customerId}/edit (docs/editing.md): the add form prefilled; saved with the version
 * read (a stale save shows who changed what since), a domain another customer lists asks first;
 * on success back to the customer with "Customer updated".
 */
export const EditPage: Screen = editScreen({
  ...form,
  useId: () => useParams({ from: "/customers/$customerId/edit" }).customerId,
  query: customerQuery,
  values: customerValues,
  name: (c) => c.customer_name,
  useUpdate: useUpdateCustomer,
  send: (values, options) => ({ ...send(values, options), ifMatch: options.ifMatch }),
  back: (customerId) => ({ to: "/customers/$customerId", params: { customerId }, label: customersMsg.backToCustomer }),
  reload: true,
  skeleton: 3,
});
