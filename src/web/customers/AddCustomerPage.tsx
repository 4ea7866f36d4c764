import { Link, useNavigate } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import { BackLink } from "../components/detail";
import { FormCard, FormPage } from "../components/forms";
import { notify } from "../components/overlays";
import { useDocumentTitle } from "../components/ui";
import { CustomerForm } from "./CustomerForm";
import { useCreateCustomer } from "./queries";

/**
 * SPEC.md §2 "/customers/add" and §5 "Add customer". On success opens the new customer, with
 * "Customer created" and a link to it.
 */
export default function AddCustomerPage() {
  const navigate = useNavigate();
  const create = useCreateCustomer();
  useDocumentTitle(msg.customers.addTitle, msg.nav.customers);

  return (
    <FormPage back={<BackLink to="/customers" label={msg.customers.backToList} />}>
      <FormCard title={msg.customers.addTitle} subtitle={msg.customers.addSubtitle}>
        <CustomerForm
          cancel={(allowLeave) => <Link to="/customers" activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} className="btn btn-ghost" onClick={allowLeave}>{msg.ui.cancel}</Link>}
          onSubmit={async (values) => {
            const customer = await create.mutateAsync(values);
            const link = { label: customer.customer_name, to: "/customers/$customerId", params: { customerId: customer.customer_id } };
            notify(msg.customers.created, { link: link });
            await navigate({ to: "/customers/$customerId", params: { customerId: customer.customer_id } });
          }}
        />
      </FormCard>
    </FormPage>
  );
}
