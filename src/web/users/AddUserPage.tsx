import type { z } from "zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeft } from "lucide-react";
import { msg } from "../../domain/messages";
import { createUserSchema, type CreateUserInput } from "../../domain/users";
import { errorMessage } from "../api/client";
import { applyServerError, FormCard, FormError } from "../components/forms";
import { Field } from "../components/inputs";
import { customerOptionsQuery } from "../customers/queries";
import { CustomerPicker } from "../customers/CustomerFilter";
import { useCreateUser } from "./queries";

/**
 * SPEC.md §2 "/users/add" and §5 "Add user": Email Address, Customer (active customers only, by
 * name), Status (default Active), Cancel and Create User. Submit is disabled while loading and when
 * there is no active customer. On success opens /users.
 */
export default function AddUserPage() {
  const navigate = useNavigate();
  const create = useCreateUser();
  // Only whether any active customer exists: the picker itself asks the server as the user types.
  const customers = useQuery(customerOptionsQuery(true));
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CreateUserInput, unknown, z.output<typeof createUserSchema>>({
    resolver: zodResolver(createUserSchema),
    defaultValues: { email: "", customer_id: "", status: "active" },
  });
  const { errors, isSubmitting } = form.formState;
  const options = customers.data?.items ?? [];
  const noCustomers = customers.isSuccess && options.length === 0;

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await create.mutateAsync(values);
      await navigate({ to: "/users" });
    } catch (err) {
      setServerError(applyServerError(err, form.setError));
    }
  });

  const customerProblem = customers.isError
    ? msg.customers.loadErrorWith(errorMessage(customers.error))
    : noCustomers
      ? msg.users.noActiveCustomers
      : null;

  return (
    <>
      <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/users" className="btn btn-ghost btn-sm mb-4 gap-1">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Users
      </Link>
      <FormCard title={msg.users.addTitle} subtitle={msg.users.addSubtitle}>
        <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
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
              aria-invalid={!!errors.email}
              {...form.register("email")}
            />
          </Field>
          <Field label="Customer" htmlFor="customer_id" required hint="Only active customers are listed." error={errors.customer_id?.message}>
            <CustomerPicker
              id="customer_id"
              activeOnly
              value={form.watch("customer_id") || undefined}
              onChange={(id) => form.setValue("customer_id", id ?? "", { shouldValidate: form.formState.isSubmitted })}
              invalid={!!errors.customer_id}
              disabled={!customers.isSuccess || noCustomers}
            />
          </Field>
          <Field label="Status" htmlFor="status" error={errors.status?.message}>
            <select id="status" className="select w-full" {...form.register("status")}>
              <option value="active">Active</option>
              <option value="inactive">Inactive</option>
              <option value="pending">Pending</option>
            </select>
          </Field>
          <div className="flex justify-end gap-2 pt-2">
            <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/users" className="btn btn-ghost">Cancel</Link>
            <button type="submit" className="btn btn-primary" disabled={isSubmitting || !customers.isSuccess || noCustomers}>
              {isSubmitting ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
              {isSubmitting ? "Creating..." : "Create User"}
            </button>
          </div>
        </form>
      </FormCard>
    </>
  );
}
