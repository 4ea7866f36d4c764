import { useQuery } from "@tanstack/react-query";
import { msg } from "../../domain/messages";
import { api } from "../api/client";
import { EntityPicker } from "../components/EntityPicker";
import { customerOptionSchema, customerOptionsSchema } from "../../domain/customers";
import { customerKeys } from "./queries";

/**
 * A customer picker over `/api/customers/options` (every customer by name, paged as it scrolls), for
 * list filters ("All Customers" clears it, SPEC.md §2 /teams, /users) and forms (`activeOnly`,
 * SPEC.md §2 "/users/add"). Later screens (skills, prompts, comments) use it as it is.
 */
export function CustomerPicker({ value, onChange, activeOnly = false, emptyLabel, id, invalid, disabled, label = "Customer", field, ...aria }: {
  value: string | undefined;
  onChange: (customerId: string | undefined) => void;
  activeOnly?: boolean;
  emptyLabel?: string;
  id?: string;
  invalid?: boolean;
  disabled?: boolean;
  label?: string;
  /** Sized as a form's full-width field. */
  field?: boolean;
  /** Set by a form `Field`: its hint or error. */
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}) {
  const chosen = useQuery({
    queryKey: [...customerKeys.all, "option", value],
    queryFn: ({ signal }) => api(`/customers/options/${value}`, customerOptionSchema, { signal }),
    enabled: Boolean(value),
    staleTime: 60_000,
  });
  return (
    <EntityPicker
      id={id}
      label={label}
      value={value}
      current={value ? chosen.data?.customer_name : undefined}
      onChange={onChange}
      emptyLabel={emptyLabel}
      invalid={invalid || aria["aria-invalid"]}
      describedBy={aria["aria-describedby"]}
      field={field}
      disabled={disabled}
      placeholder="Type a customer name..."
      queryKey={[...customerKeys.all, "options", activeOnly]}
      search={async (q, after, signal) => {
        const page = await api("/customers/options", customerOptionsSchema, { query: { q: q || undefined, active: activeOnly ? "true" : undefined, limit: 20, after }, signal });
        return { items: page.items.map((c) => ({ id: c.customer_id, label: c.customer_name })), next: page.next };
      }}
    />
  );
}

/** The "Customer" filter of a list: "All Customers", or one customer chosen by typing its name. */
export function CustomerFilter({ value, onChange }: { value: string | undefined; onChange: (customerId: string | undefined) => void }) {
  return (
    // Laid out as FilterSelect is, so that filters on a phone line up in one column.
    <div className="grid grid-cols-[6.5rem_minmax(0,1fr)] items-center gap-2 text-sm sm:flex">
      <span className="whitespace-nowrap text-base-content/80" aria-hidden>Customer</span>
      <CustomerPicker value={value} onChange={onChange} emptyLabel={msg.teams.allCustomers} />
    </div>
  );
}
