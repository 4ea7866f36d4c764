import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { msg, timings } from "../../domain/messages";
import { BackLink, DetailScaffold, FormSkeleton } from "../components/detail";
import { FormCard, FormPage } from "../components/forms";
import { notify } from "../components/overlays";
import { useDocumentTitle } from "../components/ui";
import { TeamForm, useCreateTeam } from "../teams/public";
import { customerQuery } from "./queries";

/**
 * SPEC.md §2 "/customers/{customerId}/add-team": "Add New Team" for the customer it names. On
 * success shows "Team created successfully!" with "Redirecting to customer details..." and returns
 * to the customer after 1.5 s.
 */
export default function AddTeamPage() {
  const { customerId } = useParams({ from: "/customers/$customerId/add-team" });
  const navigate = useNavigate();
  const create = useCreateTeam();
  const customer = useQuery(customerQuery(customerId));
  const [created, setCreated] = useState(false);
  const customerName = customer.data?.customer_name;
  useDocumentTitle(msg.teams.addTitle, customerName, msg.nav.customers);

  useEffect(() => {
    if (!created) return;
    const timer = setTimeout(() => void navigate({ to: "/customers/$customerId", params: { customerId } }), timings.afterTeamCreateMs);
    return () => clearTimeout(timer);
  }, [created, customerId, navigate]);

  return (
    <FormPage back={<BackLink to="/customers/$customerId" params={{ customerId }} label={msg.teams.backToCustomer} />}>
      {/* The customer first, as every detail page does: an unknown one is said at once, not after a submit. */}
      <DetailScaffold
        query={customer}
        section={msg.nav.customers}
        errorTitle={msg.customers.loadOneError}
        notFound={{ title: msg.customers.notFound }}
        back={{ to: "/customers", label: msg.customers.backToList }}
        skeleton={<FormSkeleton fields={2} />}
      >
        {(c) => (
          <FormCard
            title={msg.teams.addTitle}
            subtitle={
              <>
                <span className="block truncate" title={c.customer_name}>{msg.teams.addFor(c.customer_name)}</span>
                <span className="block">{msg.teams.addSubtitle}</span>
              </>
            }
          >
            <TeamForm
              customerId={customerId}
              locked={created}
              cancel={(allowLeave) => (
                <Link to="/customers/$customerId" params={{ customerId }} activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} className="btn btn-ghost" onClick={allowLeave}>{msg.ui.cancel}</Link>
              )}
              onSubmit={async (values) => {
                await create.mutateAsync(values);
                notify(msg.teams.created, { detail: msg.teams.redirectingToCustomer });
                setCreated(true);
              }}
            />
          </FormCard>
        )}
      </DetailScaffold>
    </FormPage>
  );
}
