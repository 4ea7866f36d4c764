import { useEffect, useState, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { AlertTriangle, Save } from "lucide-react";
import {
  billingPlans,
  companySizes,
  configFeatures,
  configFieldLabel,
  configLabels,
  configValuesSchema,
  customerConfigSchema,
  industries,
  limitWarnings,
  type ConfigChange,
  type ConfigValues,
  type CustomerConfig,
} from "../../domain/config";
import { configMsg } from "../../domain/messages/config";
import { customersMsg } from "../../domain/messages/customers";
import { fallbacksMsg, uiMsg } from "../../domain/messages/kit";
import { ApiError, errorMessage } from "../api/client";
import { ActionBar, DisabledAction, historyAction, useRoleReason } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable, type Column } from "../components/DataTable";
import { Section } from "../components/detail";
import { EnumOptions, FormError, useUnsavedChanges } from "../components/forms";
import { formatDateTime, formatNumber, titleCase } from "../components/format";
import { Field } from "../components/inputs";
import { ListPagination } from "../components/ListPagination";
import { notify } from "../components/overlays";
import { DateText, Muted } from "../components/text";
import { DetailSkeleton } from "../components/detail";
import { ErrorState, PageHeader } from "../components/ui";
import { CustomerPicker } from "../customers/public";
import { useServerList } from "../lib/server-list";
import { configChangesQuery, configKeys, configQuery, useSaveConfig } from "./queries";

/**
 * SPEC.md §2 "/config": a customer's configuration (customer selector; industry, company size,
 * billing plan; features each Enabled or not; limits with the current usage beside them; security;
 * recent changes), saved with Save Changes by editors and admins. The chosen customer is in the
 * URL (`/config?customer=<id>`), so the customer page links straight to it.
 */
export default function ConfigPage() {
  const { customer } = useSearch({ from: "/config" });
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={configMsg.title} subtitle={configMsg.subtitle} />
      <div className="mb-6 flex flex-col gap-1.5 sm:max-w-md">
        <label htmlFor="config-customer" className="text-sm font-medium">
          {configMsg.customer}
        </label>
        <CustomerPicker
          id="config-customer"
          label={configMsg.customer}
          field
          value={customer}
          onChange={(id) => void navigate({ to: "/config", search: id ? { customer: id } : {} })}
        />
      </div>
      {customer ? (
        <CustomerConfigView key={customer} customerId={customer} />
      ) : (
        <div className="card border border-base-300 bg-base-100 shadow-sm">
          <div className="card-body items-center py-12 text-center text-base-content/80">
            {configMsg.chooseCustomer}
          </div>
        </div>
      )}
    </>
  );
}

function CustomerConfigView({ customerId }: { customerId: string }) {
  const query = useQuery(configQuery(customerId));
  if (query.isPending) return <DetailSkeleton />;
  if (!query.data) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <ErrorState
        title={missing ? customersMsg.notFound : configMsg.loadError}
        message={missing ? undefined : errorMessage(query.error)}
        onRetry={missing ? undefined : () => void query.refetch()}
      />
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <ConfigForm config={query.data} />
      <RecentChanges customerId={customerId} />
    </div>
  );
}

/** The configuration form: four sections and Save Changes (or the read-only reason). */
function ConfigForm({ config }: { config: CustomerConfig }) {
  const queryClient = useQueryClient();
  const save = useSaveConfig(config.customer_id);
  const readOnly = useRoleReason("editor");
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<ConfigValues>({
    resolver: zodResolver(configValuesSchema),
    defaultValues: config.values,
    mode: "onTouched",
  });
  const [version, setVersion] = useState(config.version);
  const { errors, isDirty, isSubmitting } = form.formState;
  const guard = useUnsavedChanges(isDirty);
  const watched = useWatch({ control: form.control });
  const warnings = limitWarnings(
    { max_users: Number(watched.max_users), max_teams: Number(watched.max_teams) },
    config.usage,
  );

  // A refetch that brings a newer version (another operator's save) replaces an untouched form.
  useEffect(() => {
    if (config.version !== version && !form.formState.isDirty) {
      form.reset(config.values);
      setVersion(config.version);
    }
  }, [config, version, form]);

  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const saved = await save.mutateAsync({ ...values, version });
      queryClient.setQueryData(configKeys.detail(config.customer_id), saved);
      setVersion(saved.version);
      form.reset(saved.values);
      notify(saved.version === version ? configMsg.noChanges : configMsg.saved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        const parsed = customerConfigSchema.safeParse((err.body as { current?: unknown } | undefined)?.current);
        if (parsed.success) {
          const current = parsed.data;
          queryClient.setQueryData(configKeys.detail(config.customer_id), current);
          setVersion(current.version);
          form.reset(current.values);
          setServerError(
            configMsg.stale(current.updated_by ?? configMsg.staleSomeone, formatDateTime(current.updated_at)),
          );
          return;
        }
      }
      if (err instanceof ApiError && err.fields) {
        for (const [field, message] of Object.entries(err.fields))
          form.setError(field as keyof ConfigValues, { type: "server", message });
        if (Object.keys(err.fields).length > 0) return;
      }
      setServerError(errorMessage(err));
    }
  });

  const numberField = (
    name: "max_users" | "max_teams" | "storage_gb" | "session_timeout_minutes",
    hint?: ReactNode,
    warning?: string,
  ) => (
    <Field label={configLabels[name]} htmlFor={name} error={errors[name]?.message} hint={hint}>
      <input
        id={name}
        type="number"
        inputMode="numeric"
        min={name === "session_timeout_minutes" ? 5 : 1}
        max={name === "session_timeout_minutes" ? 1440 : undefined}
        step={1}
        className={`input w-full ${errors[name] ? "input-error" : warning ? "input-warning" : ""}`}
        {...form.register(name, { valueAsNumber: true })}
      />
    </Field>
  );
  const usageHint = (n: number, what: string, warning?: string) => (
    <span className="flex flex-col gap-0.5">
      <span>{configMsg.usage(formatNumber(n), what)}</span>
      {warning ? (
        <span className="flex items-start gap-1 font-medium text-base-content" data-testid="limit-warning">
          <AlertTriangle className="mt-0.5 h-3.5 w-3.5 shrink-0 text-warning" aria-hidden />
          {warning}
        </span>
      ) : null}
    </span>
  );
  const toggle = (name: ToggleName, label: string) => (
    <label
      key={name}
      className="flex cursor-pointer items-center justify-between gap-4 rounded-lg border border-base-300 px-3 py-2.5"
    >
      <span className="text-sm font-medium">{label}</span>
      <span className="flex items-center gap-2 text-sm text-base-content/80">
        <input type="checkbox" className="toggle toggle-primary toggle-sm" {...form.register(name)} />
        <ToggleState control={form.control} name={name} />
      </span>
    </label>
  );

  // The leave guard's dialog has a form of its own: it stays outside this one (no nested forms).
  return (
    <>
      <form
        onSubmit={submit}
        noValidate
        aria-label={`${configMsg.title}: ${config.customer_name}`}
        className="flex flex-col gap-6"
      >
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <Link
            to="/customers/$customerId"
            params={{ customerId: config.customer_id }}
            className="link link-primary font-semibold"
          >
            {config.customer_name}
          </Link>
          <StatusBadge kind="customer" status={config.customer_status} />
          <span className="text-base-content/80" data-testid="config-last-saved">
            {config.version === 0 || !config.updated_at ? (
              configMsg.onDefaults
            ) : (
              <>
                {configMsg.lastSaved} <DateText iso={config.updated_at} withTime />
                {config.updated_by ? ` · ${config.updated_by}` : ""}
              </>
            )}
          </span>
        </div>
        <FormError message={serverError} />
        <fieldset
          disabled={Boolean(readOnly) || isSubmitting}
          className="grid min-w-0 grid-cols-1 gap-6 xl:grid-cols-2"
        >
          <legend className="sr-only">{configMsg.title}</legend>
          <Section title={configMsg.organization}>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-3 xl:grid-cols-1 2xl:grid-cols-3">
              <Field label={configLabels.industry} htmlFor="industry" error={errors.industry?.message}>
                <select id="industry" className="select w-full" {...form.register("industry")}>
                  <EnumOptions values={industries} />
                </select>
              </Field>
              <Field label={configLabels.company_size} htmlFor="company_size" error={errors.company_size?.message}>
                <select id="company_size" className="select w-full" {...form.register("company_size")}>
                  {companySizes.map((s) => (
                    <option key={s} value={s}>
                      {configLabels.companySizes[s]}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label={configLabels.billing_plan} htmlFor="billing_plan" error={errors.billing_plan?.message}>
                <select id="billing_plan" className="select w-full" {...form.register("billing_plan")}>
                  <EnumOptions values={billingPlans} />
                </select>
              </Field>
            </div>
          </Section>
          <Section title={configMsg.features}>
            <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
              {configFeatures.map((f) => toggle(`features.${f}`, configLabels.features[f]))}
            </div>
          </Section>
          <Section title={configMsg.limits}>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
              {numberField("max_users", usageHint(config.usage.users, "users", warnings.max_users), warnings.max_users)}
              {numberField("max_teams", usageHint(config.usage.teams, "teams", warnings.max_teams), warnings.max_teams)}
              {numberField("storage_gb")}
            </div>
          </Section>
          <Section title={configMsg.security}>
            <div className="flex flex-col gap-3">
              {toggle("allow_guest_users", configLabels.allow_guest_users)}
              {toggle("require_mfa", configLabels.require_mfa)}
              {numberField("session_timeout_minutes", "5 to 1440 minutes")}
            </div>
          </Section>
        </fieldset>
        <div className="flex justify-end gap-2">
          {readOnly ? (
            <DisabledAction label={configMsg.save} icon={Save} reason={readOnly} size="btn-md" />
          ) : (
            <>
              <button
                type="button"
                className="btn btn-ghost"
                disabled={!isDirty || isSubmitting}
                onClick={() => {
                  form.reset(config.values);
                  setServerError(null);
                }}
              >
                {uiMsg.discard}
              </button>
              <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
                {isSubmitting ? (
                  <span className="loading loading-spinner loading-sm" aria-hidden />
                ) : (
                  <Save className="h-4 w-4" aria-hidden />
                )}
                {isSubmitting ? configMsg.saving : configMsg.save}
              </button>
            </>
          )}
        </div>
      </form>
      {guard.prompt}
    </>
  );
}

/** The form's on/off fields: the two settings and each feature. */
type ToggleName = "allow_guest_users" | "require_mfa" | `features.${(typeof configFeatures)[number]}`;

/** "Enabled" / "Disabled" beside a toggle, following its value. */
function ToggleState({
  control,
  name,
}: {
  control: ReturnType<typeof useForm<ConfigValues>>["control"];
  name: ToggleName;
}) {
  const on = useWatch({ control, name });
  return (
    <span className="w-16" aria-hidden>
      {on ? configMsg.enabled : configMsg.disabled}
    </span>
  );
}

const col = columnsFor<ConfigChange>();
const changeColumns: Column<ConfigChange>[] = [
  col.accessor("changed_at", {
    id: "changed_at",
    header: "When",
    cell: (c) => <DateText iso={c.row.original.changed_at} withTime />,
  }),
  col.accessor("changed_by", {
    id: "changed_by",
    header: "Who",
    cell: (c) => c.row.original.changed_by ?? <Muted>{fallbacksMsg.unknownUser}</Muted>,
  }),
  col.accessor("field", {
    id: "field",
    header: "Field",
    meta: { grow: true },
    cell: (c) => configFieldLabel(c.row.original.field),
  }),
  col.display({
    id: "from",
    header: "From",
    cell: ({ row }) => <ChangeValue field={row.original.field} value={row.original.old_value} />,
  }),
  col.display({
    id: "to",
    header: "To",
    cell: ({ row }) => <ChangeValue field={row.original.field} value={row.original.new_value} />,
  }),
];

/** A stored value as the form shows it ("Enabled", "Enterprise", "1–50 employees", "500"). */
function ChangeValue({ field, value }: { field: string; value: string | null }) {
  if (value === null) return <Muted>{fallbacksMsg.noDate}</Muted>;
  if (value === "true" || value === "false") return <>{value === "true" ? configMsg.enabled : configMsg.disabled}</>;
  if (field === "company_size")
    return <>{configLabels.companySizes[value as keyof typeof configLabels.companySizes] ?? value}</>;
  if (/^\d+$/.test(value)) return <span className="tabular-nums">{formatNumber(Number(value))}</span>;
  return <>{titleCase(value)}</>;
}

/** Recent changes: the last saved field changes of the customer, newest first, from the database. */
function RecentChanges({ customerId }: { customerId: string }) {
  const list = useServerList<ConfigChange>({
    mode: "local",
    defaults: { sort: "changed_at", order: "desc" },
    limit: 10,
    query: configChangesQuery(customerId),
  });
  const { data, failed, query } = list;
  return (
    <Section
      title={configMsg.recentChanges}
      actions={<ActionBar actions={[historyAction("customer_config", customerId)]} />}
    >
      {failed ? (
        <ErrorState
          title={configMsg.loadError}
          message={errorMessage(query.error)}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <DataTable
            label={configMsg.recentChanges}
            columns={changeColumns}
            rows={data?.items}
            rowKey={(c) => c.change_id}
            loading={query.isPending || query.isFetching}
            empty={<Muted>{configMsg.noRecentChanges}</Muted>}
          />
          <ListPagination list={list} label={`${configMsg.recentChanges} pages`} />
        </>
      )}
    </Section>
  );
}
