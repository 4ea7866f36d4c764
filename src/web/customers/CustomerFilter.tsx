import { customerOptionSchema, customerOptionsSchema } from "../../domain/customers";
import { teamsMsg } from "../../domain/messages/teams";
import { optionsPicker } from "../components/EntityPicker";
import { customerKeys } from "./queries";

/**
 * The customer picker over `/api/customers/options` (every customer by name, paged as it scrolls):
 * `CustomerPicker` for forms (`activeOnly`, SPEC.md §2 "/users/add") and the configuration screen,
 * `CustomerFilter` for lists ("All Customers" clears it, SPEC.md §2 /teams, /users, /comments).
 */
const customerPicker = optionsPicker({
  path: "/customers/options",
  page: customerOptionsSchema,
  one: customerOptionSchema,
  option: (c) => ({ id: c.customer_id, label: c.customer_name }),
  root: customerKeys.all,
  labels: { label: "Customer", placeholder: "Type a customer name...", all: teamsMsg.allCustomers },
});

/** A customer picker (see `optionsPicker`). */
export const CustomerPicker = customerPicker.Picker;
/** The "Customer" filter of a list: "All Customers", or one customer chosen by typing its name. */
export const CustomerFilter = customerPicker.Filter;
