import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { createCustomerSchema } from "../../domain/customers";
import { msg } from "../../domain/messages";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { customerFields, customerRecord, customerValues, customerWarnings } from "./CustomerForm";
import { customerKeys, customerQuery, useUpdateCustomer } from "./queries";

/**
 * /customers/{customerId}/edit (docs/editing.md): the add form prefilled; saved with the version
 * read (a stale save shows who changed what since), a domain another customer lists asks first;
 * on success back to the customer with "Customer updated".
 */
export default function EditCustomerPage() {
  const { customerId } = useParams({ from: "/customers/$customerId/edit" });
  const query = useQuery(customerQuery(customerId));
  const update = useUpdateCustomer(customerId);
  const queryClient = useQueryClient();
  const back = { to: "/customers/$customerId", params: { customerId } };
  return (
    <FormScreen
      section={msg.nav.customers}
      title={msg.customers.editTitle}
      subtitle={msg.customers.editSubtitle}
      back={{ ...back, label: msg.customers.backToCustomer }}
      load={{ query, name: (c) => c.customer_name, kind: customerRecord }}
      fields={3}
    >
      {({ record: customer, cancel, finish, locked }) => (
        <EntityForm
          schema={createCustomerSchema}
          fields={customerFields}
          defaults={customerValues(customer)}
          version={{
            updatedAt: customer.updated_at,
            reset: (current) => customerValues(current as never),
            onReload: () => void queryClient.invalidateQueries({ queryKey: customerKeys.detail(customerId) }),
          }}
          warnings={customerWarnings}
          locked={locked}
          submitLabel={msg.edit.save}
          busyLabel={msg.edit.saving}
          cancel={cancel}
          onSubmit={async ({ confirm_domains: _c, ...values }, { ifMatch, confirmed }) => {
            await update.mutateAsync({
              ...values,
              ifMatch,
              confirm_domains: confirmed.includes("domain_claimed") || undefined,
            });
            notify(msg.customers.updated);
            await finish(back);
          }}
        />
      )}
    </FormScreen>
  );
}
