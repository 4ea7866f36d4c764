import { useQuery } from "@tanstack/react-query";
import { linkOptions, useParams } from "@tanstack/react-router";
import { navMsg, timings } from "../../domain/messages/common";
import { teamsMsg } from "../../domain/messages/teams";
import { createTeamSchema } from "../../domain/teams";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { teamDefaults, teamFields, useCreateTeam } from "../teams/public";
import { customerRecord } from "./CustomerForm";
import { customerQuery } from "./queries";

/**
 * SPEC.md §2 "/customers/{customerId}/add-team": "Add New Team" for the customer it names, checked
 * first (an unknown customer says "Customer not found" at once). On success shows "Team created
 * successfully!" with "Redirecting to customer details..." and returns to the customer after 1.5 s.
 */
export default function AddTeamPage() {
  const { customerId } = useParams({ from: "/customers/$customerId/add-team" });
  const customer = useQuery(customerQuery(customerId));
  const create = useCreateTeam();
  const back = linkOptions({ to: "/customers/$customerId", params: { customerId } });
  return (
    <FormScreen
      section={navMsg.customers}
      title={teamsMsg.addTitle}
      subtitle={(c) => (
        <>
          <span className="block truncate" title={c.customer_name}>
            {teamsMsg.addFor(c.customer_name)}
          </span>
          <span className="block">{teamsMsg.addSubtitle}</span>
        </>
      )}
      back={{ ...back, label: teamsMsg.backToCustomer }}
      load={{ query: customer, name: (c) => c.customer_name, kind: customerRecord }}
      fields={2}
    >
      {({ cancel, finish, locked }) => (
        <EntityForm
          schema={createTeamSchema}
          fields={teamFields}
          defaults={teamDefaults(customerId)}
          locked={locked}
          submitLabel={teamsMsg.create}
          busyLabel={teamsMsg.creating}
          cancel={cancel}
          onSubmit={async (values) => {
            await create.mutateAsync(values);
            notify(teamsMsg.created, { detail: teamsMsg.redirectingToCustomer });
            await finish(back, timings.afterTeamCreateMs);
          }}
        />
      )}
    </FormScreen>
  );
}
