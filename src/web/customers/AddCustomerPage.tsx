import { createCustomerSchema } from "../../domain/customers";
import { msg } from "../../domain/messages";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { customerDefaults, customerFields } from "./CustomerForm";
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
          submitLabel={msg.customers.create}
          busyLabel={msg.customers.creating}
          cancel={cancel}
          onSubmit={async (values) => {
            const customer = await create.mutateAsync(values);
            const target = { to: "/customers/$customerId", params: { customerId: customer.customer_id } };
            notify(msg.customers.created, { link: { label: customer.customer_name, ...target } });
            await finish(target);
          }}
        />
      )}
    </FormScreen>
  );
}
