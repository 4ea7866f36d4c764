import type { z } from "zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { ArrowLeft } from "lucide-react";
import { msg, timings } from "../../domain/messages";
import { createTeamSchema, type CreateTeamInput } from "../../domain/teams";
import { applyServerError, FormCard, FormError } from "../components/forms";
import { Field } from "../components/inputs";
import { SuccessBanner, useBanner } from "../components/overlays";
import { useCreateTeam } from "../teams/queries";

/**
 * SPEC.md §2 "/customers/{customerId}/add-team": "Add New Team". On success shows "Team created
 * successfully!" with "Redirecting to customer details..." and returns to the customer after 1.5 s.
 */
export default function AddTeamPage() {
  const { customerId } = useParams({ from: "/customers/$customerId/add-team" });
  const navigate = useNavigate();
  const create = useCreateTeam();
  const banner = useBanner();
  const [serverError, setServerError] = useState<string | null>(null);
  const [created, setCreated] = useState(false);
  const form = useForm<CreateTeamInput, unknown, z.output<typeof createTeamSchema>>({
    resolver: zodResolver(createTeamSchema),
    defaultValues: { customer_id: customerId, team_name: "", status: "active" },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (!created) return;
    const timer = setTimeout(() => void navigate({ to: "/customers/$customerId", params: { customerId } }), timings.afterTeamCreateMs);
    return () => clearTimeout(timer);
  }, [created, customerId, navigate]);

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await create.mutateAsync(values);
      banner.show(msg.teams.created, msg.teams.redirectingToCustomer);
      setCreated(true);
    } catch (err) {
      setServerError(applyServerError(err, form.setError));
    }
  });

  return (
    <>
      <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/customers/$customerId" params={{ customerId }} className="btn btn-ghost btn-sm mb-4 gap-1">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Customer
      </Link>
      <FormCard title={msg.teams.addTitle} subtitle="Teams group a customer's users and the skills they use.">
        <SuccessBanner message={banner.message} />
        <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
          <FormError message={serverError ?? errors.customer_id?.message ?? null} />
          <Field label="Team Name" htmlFor="team_name" required error={errors.team_name?.message}>
            <input id="team_name" className={`input w-full ${errors.team_name ? "input-error" : ""}`} autoFocus aria-invalid={!!errors.team_name} {...form.register("team_name")} />
          </Field>
          <Field label="Status" htmlFor="status">
            <select id="status" className="select w-full" {...form.register("status")}>
              <option value="active">Active</option>
              <option value="inactive">Inactive</option>
            </select>
          </Field>
          <div className="flex justify-end gap-2 pt-2">
            <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/customers/$customerId" params={{ customerId }} className="btn btn-ghost">Cancel</Link>
            <button type="submit" className="btn btn-primary" disabled={isSubmitting || created}>
              {isSubmitting ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
              {isSubmitting ? "Creating..." : "Create Team"}
            </button>
          </div>
        </form>
      </FormCard>
    </>
  );
}
