import { createCustomerSchema } from "../../domain/customers";
import { msg } from "../../domain/messages";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { customerDefaults, customerFields, customerWarnings } from "./CustomerForm";
import { useCreateCustomer } from "./queries";

/**
 * SPEC.md §2 "/customers/add" and §5 "Add customer". On success opens the new customer, with
 * "Customer created" and a link to it.
 */
export default function AddCustomerPage() {
  const create = useCreateCustomer();
  return (
    <FormScreen
      section={msg.nav.customers}
      title={msg.customers.addTitle}
      subtitle={msg.customers.addSubtitle}
      back={{ to: "/customers", label: msg.customers.backToList }}
    >
      {({ cancel, finish }) => (
        <EntityForm
          schema={createCustomerSchema}
          fields={customerFields}
          defaults={customerDefaults}
          warnings={customerWarnings}
          submitLabel={msg.customers.create}
          busyLabel={msg.customers.creating}
          cancel={cancel}
          onSubmit={async ({ confirm_domains: _c, ...values }, { confirmed }) => {
            const customer = await create.mutateAsync({
              ...values,
              confirm_domains: confirmed.includes("domain_claimed") || undefined,
            });
            const target = { to: "/customers/$customerId", params: { customerId: customer.customer_id } };
            notify(msg.customers.created, { link: { label: customer.customer_name, ...target } });
            await finish(target);
          }}
        />
      )}
    </FormScreen>
  );
}
