import type { z } from "zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeft } from "lucide-react";
import { createCustomerSchema, type CreateCustomerInput } from "../../domain/customers";
import { msg } from "../../domain/messages";
import { applyServerError, FormCard, FormError } from "../components/forms";
import { Field } from "../components/inputs";
import { useCreateCustomer } from "./queries";

/** SPEC.md §2 "/customers/add" and §5 "Add customer". On success opens the new customer. */
export default function AddCustomerPage() {
  const navigate = useNavigate();
  const create = useCreateCustomer();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CreateCustomerInput, unknown, z.output<typeof createCustomerSchema>>({
    resolver: zodResolver(createCustomerSchema),
    defaultValues: { customer_name: "", status: "active", valid_domains: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const customer = await create.mutateAsync(values);
      await navigate({ to: "/customers/$customerId", params: { customerId: customer.customer_id } });
    } catch (err) {
      setServerError(applyServerError(err, form.setError));
    }
  });

  return (
    <>
      <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/customers" className="btn btn-ghost btn-sm mb-4 gap-1">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Customers
      </Link>
      <FormCard title={msg.customers.addTitle} subtitle="Create a customer organization. You can add teams and users afterwards.">
        <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
          <FormError message={serverError} />
          <Field label="Customer Name" htmlFor="customer_name" required error={errors.customer_name?.message}>
            <input id="customer_name" className={`input w-full ${errors.customer_name ? "input-error" : ""}`} autoFocus aria-invalid={!!errors.customer_name} {...form.register("customer_name")} />
          </Field>
          <Field label="Status" htmlFor="status" error={errors.status?.message}>
            <select id="status" className="select w-full" {...form.register("status")}>
              <option value="active">Active</option>
              <option value="inactive">Inactive</option>
              <option value="trial">Trial</option>
            </select>
          </Field>
          <Field label="Valid Domains" htmlFor="valid_domains" hint="One per line or comma-separated, e.g. example.com" error={errors.valid_domains?.message}>
            <textarea id="valid_domains" rows={4} className="textarea w-full" placeholder={"example.com\nexample.io"} {...form.register("valid_domains")} />
          </Field>
          <div className="flex justify-end gap-2 pt-2">
            <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/customers" className="btn btn-ghost">Cancel</Link>
            <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
              {isSubmitting ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
              {isSubmitting ? "Creating..." : "Create Customer"}
            </button>
          </div>
        </form>
      </FormCard>
    </>
  );
}
