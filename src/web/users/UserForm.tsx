import type { z } from "zod";
import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { userStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { createUserSchema, type CreateUserInput } from "../../domain/users";
import { errorMessage } from "../api/client";
import { applyServerError, EnumOptions, FormActions, FormError, useUnsavedChanges } from "../components/forms";
import { Field } from "../components/inputs";
import { CustomerPicker, customerOptionsQuery } from "../customers/public";
import { maxLengthOf } from "../../domain/text";

export type UserFormValues = z.output<typeof createUserSchema>;

/**
 * The user form (SPEC.md §2 "/users/add", §5 "Add user"), for adding and editing: Email Address
 * (trimmed, lowercased, shape-checked), Customer (a type-ahead picker over active customers), Status
 * (`userStatuses`, default Active). Submit is disabled while the customers load and when there is
 * no active customer ("No active customers found. Please create a customer first.").
 */
export function UserForm({ defaults, onSubmit, submitLabel = msg.users.create, busyLabel = msg.users.creating, cancel }: {
  defaults?: Partial<CreateUserInput>;
  onSubmit: (values: UserFormValues) => Promise<void>;
  submitLabel?: string;
  busyLabel?: string;
  cancel: (allowLeave: () => void) => ReactNode;
}) {
  // Only whether any active customer exists: the picker itself asks the server as the user types.
  const customers = useQuery(customerOptionsQuery(true));
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CreateUserInput, unknown, UserFormValues>({
    resolver: zodResolver(createUserSchema),
    defaultValues: { email: "", customer_id: "", status: "active", ...defaults },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const guard = useUnsavedChanges(isDirty);
  const options = customers.data?.items ?? [];
  const noCustomers = customers.isSuccess && options.length === 0;

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

  const customerProblem = customers.isError
    ? msg.customers.loadErrorWith(errorMessage(customers.error))
    : noCustomers
      ? msg.users.noActiveCustomers
      : null;

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <FormError message={serverError} />
      {customerProblem ? (
        <div role="alert" className={`alert alert-soft text-sm ${customers.isError ? "alert-error" : "alert-warning"}`}>
          {customerProblem}
        </div>
      ) : null}
      <Field label="Email Address" htmlFor="email" required error={errors.email?.message}>
        <input
          id="email"
          type="email"
          autoComplete="off"
          placeholder="name@company.com"
          className={`input w-full ${errors.email ? "input-error" : ""}`}
          autoFocus
          {...form.register("email")} maxLength={maxLengthOf(createUserSchema.shape.email)}
        />
      </Field>
      <Field label="Customer" htmlFor="customer_id" required hint={msg.users.activeCustomersOnly} error={errors.customer_id?.message}>
        <CustomerPicker
          id="customer_id"
          activeOnly
          field
          value={form.watch("customer_id") || undefined}
          onChange={(id) => form.setValue("customer_id", id ?? "", { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
          invalid={!!errors.customer_id}
          disabled={!customers.isSuccess || noCustomers}
        />
      </Field>
      <Field label="Status" htmlFor="status" error={errors.status?.message}>
        <select id="status" className="select w-full" {...form.register("status")}>
          <EnumOptions values={userStatuses} />
        </select>
      </Field>
      <FormActions cancel={cancel(guard.allowLeave)} submitLabel={submitLabel} busyLabel={busyLabel} busy={isSubmitting} disabled={!customers.isSuccess || noCustomers} />
      {guard.prompt}
    </form>
  );
}
