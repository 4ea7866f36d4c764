import type { z } from "zod";
import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { createCustomerSchema, type CreateCustomerInput } from "../../domain/customers";
import { customerStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { applyServerError, EnumOptions, FormActions, FormError, useUnsavedChanges } from "../components/forms";
import { Field } from "../components/inputs";
import { maxLengthOf } from "../../domain/text";

export type CustomerFormValues = z.output<typeof createCustomerSchema>;

/**
 * The customer form (SPEC.md §5 "Add customer"), for adding and editing: Customer Name (required,
 * trimmed), Status (the statuses of `customerStatuses`), Valid Domains (one per line or
 * comma-separated, saved null when empty). Server field errors show under their fields, other
 * errors in the red box; leaving with unsaved changes asks first.
 */
export function CustomerForm({ defaults, onSubmit, submitLabel = msg.customers.create, busyLabel = msg.customers.creating, cancel }: {
  defaults?: Partial<CreateCustomerInput>;
  /** Saves; a thrown ApiError is shown on the form. */
  onSubmit: (values: CustomerFormValues) => Promise<void>;
  submitLabel?: string;
  busyLabel?: string;
  /** The Cancel link; it leaves without asking. */
  cancel: (allowLeave: () => void) => ReactNode;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CreateCustomerInput, unknown, CustomerFormValues>({
    resolver: zodResolver(createCustomerSchema),
    defaultValues: { customer_name: "", status: "active", valid_domains: "", ...defaults },
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
      <FormError message={serverError} />
      <Field label="Customer Name" htmlFor="customer_name" required error={errors.customer_name?.message}>
        <input id="customer_name" className={`input w-full ${errors.customer_name ? "input-error" : ""}`} autoFocus {...form.register("customer_name")} maxLength={maxLengthOf(createCustomerSchema.shape.customer_name)} />
      </Field>
      <Field label="Status" htmlFor="status" error={errors.status?.message}>
        <select id="status" className="select w-full" {...form.register("status")}>
          <EnumOptions values={customerStatuses} />
        </select>
      </Field>
      <Field label="Valid Domains" htmlFor="valid_domains" hint={msg.customers.domainsHint} error={errors.valid_domains?.message}>
        <textarea id="valid_domains" rows={4} className="textarea w-full" placeholder={"example.com\nexample.io"} {...form.register("valid_domains")} maxLength={maxLengthOf(createCustomerSchema.shape.valid_domains)} />
      </Field>
      <FormActions cancel={cancel(guard.allowLeave)} submitLabel={submitLabel} busyLabel={busyLabel} busy={isSubmitting} />
      {guard.prompt}
    </form>
  );
}
