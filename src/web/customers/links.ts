import { linkOptions } from "@tanstack/react-router";
import { Building2 } from "lucide-react";
import { customersMsg } from "../../domain/messages/customers";
import type { RecordStat } from "../components/detail";

/** The card of a record's customer (a team's, a user's): its name, opening the customer's page. */
export const customerStat = (customerId: string, name: string): RecordStat => ({
  label: customersMsg.customer,
  icon: Building2,
  link: { to: "/customers/$customerId", params: { customerId }, text: name },
});

/** The back link of a record that belongs to a customer (a team, a user): to the customer's page. */
export const backToCustomer = (customerId: string, label: string) => ({
  ...linkOptions({ to: "/customers/$customerId", params: { customerId } }),
  label,
});
