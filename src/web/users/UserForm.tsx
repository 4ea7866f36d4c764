import { useQuery } from "@tanstack/react-query";
import { userStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import type { CreateUserInput } from "../../domain/users";
import { errorMessage } from "../api/client";
import type { FieldSpec, FormNotice } from "../components/EntityForm";
import { CustomerPicker, customerOptionsQuery } from "../customers/public";

/**
 * The user form (SPEC.md §2 "/users/add", §5 "Add user"): Email Address (trimmed, lowercased,
 * shape-checked), Customer (a picker over active customers), Status (`userStatuses`, default
 * Active). Rendered by `EntityForm` with `createUserSchema`, with `useUserFormState`'s notice.
 */
export const userFields: FieldSpec<CreateUserInput>[] = [
  {
    kind: "text",
    name: "email",
    label: "Email Address",
    required: true,
    type: "email",
    autoComplete: "off",
    placeholder: "name@company.com",
  },
  {
    kind: "picker",
    name: "customer_id",
    label: "Customer",
    required: true,
    hint: msg.users.activeCustomersOnly,
    picker: (control) => <CustomerPicker {...control} activeOnly field />,
  },
  { kind: "select", name: "status", label: "Status", options: userStatuses },
];

export const userDefaults: CreateUserInput = { email: "", customer_id: "", status: "active" };

/**
 * The customers' state above the form: "Error loading customers: {message}" or "No active customers
 * found. Please create a customer first." (SPEC.md §5); the form is disabled until one can be chosen.
 */
export function useUserFormState(): { notice: FormNotice | null; disabled: boolean } {
  // Only whether any active customer exists: the picker itself asks the server.
  const customers = useQuery(customerOptionsQuery(true));
  const none = customers.isSuccess && customers.data.items.length === 0;
  const notice: FormNotice | null = customers.isError
    ? { tone: "error", text: msg.customers.loadErrorWith(errorMessage(customers.error)) }
    : none
      ? { tone: "warning", text: msg.users.noActiveCustomers }
      : null;
  return { notice, disabled: !customers.isSuccess || none };
}
