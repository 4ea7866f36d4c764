import type { z } from "zod";
import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { teamFormStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { createTeamSchema, type CreateTeamInput } from "../../domain/teams";
import { applyServerError, EnumOptions, FormActions, FormError, useUnsavedChanges } from "../components/forms";
import { Field } from "../components/inputs";
import { maxLengthOf } from "../../domain/text";

export type TeamFormValues = z.output<typeof createTeamSchema>;

/**
 * The team form (SPEC.md §5 "Add team"), for adding and editing a team of `customerId`: Team Name
 * (required, trimmed) and Status (`teamFormStatuses`). `locked` keeps it read-only once saved
 * (while the page waits to redirect).
 */
export function TeamForm({ customerId, defaults, onSubmit, submitLabel = msg.teams.create, busyLabel = msg.teams.creating, cancel, locked }: {
  customerId: string;
  defaults?: Partial<CreateTeamInput>;
  onSubmit: (values: TeamFormValues) => Promise<void>;
  submitLabel?: string;
  busyLabel?: string;
  cancel: (allowLeave: () => void) => ReactNode;
  locked?: boolean;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CreateTeamInput, unknown, TeamFormValues>({
    resolver: zodResolver(createTeamSchema),
    defaultValues: { customer_id: customerId, team_name: "", status: "active", ...defaults },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const guard = useUnsavedChanges(isDirty);

  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    guard.allowLeave();
    try {
      await onSubmit(values);
    } catch (err) {
      guard.blockLeave();
      setServerError(applyServerError(err, form.setError));
    }
  });

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <FormError message={serverError ?? errors.customer_id?.message} />
      <Field label="Team Name" htmlFor="team_name" required error={errors.team_name?.message}>
        <input id="team_name" className={`input w-full ${errors.team_name ? "input-error" : ""}`} autoFocus {...form.register("team_name")} maxLength={maxLengthOf(createTeamSchema.shape.team_name)} />
      </Field>
      <Field label="Status" htmlFor="status" error={errors.status?.message}>
        <select id="status" className="select w-full" {...form.register("status")}>
          <EnumOptions values={teamFormStatuses} />
        </select>
      </Field>
      <FormActions cancel={cancel(guard.allowLeave)} submitLabel={submitLabel} busyLabel={busyLabel} busy={isSubmitting} disabled={locked} />
      {guard.prompt}
    </form>
  );
}
