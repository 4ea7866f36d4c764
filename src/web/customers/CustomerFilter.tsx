import { useQuery } from "@tanstack/react-query";
import { msg } from "../../domain/messages";
import { FilterSelect } from "../components/inputs";
import { customerOptionsQuery } from "./queries";

/** The "Customer" filter of a list: "All Customers" then every customer by name (SPEC.md §2 /teams, /users). */
export function CustomerFilter({ value, onChange }: { value: string | undefined; onChange: (customerId: string | undefined) => void }) {
  const customers = useQuery(customerOptionsQuery());
  return (
    <FilterSelect label="Customer" value={value ?? ""} onChange={(v) => onChange(v || undefined)}>
      <option value="">{msg.teams.allCustomers}</option>
      {customers.data?.items.map((c) => (
        <option key={c.customer_id} value={c.customer_id}>{c.customer_name}</option>
      ))}
    </FilterSelect>
  );
}
