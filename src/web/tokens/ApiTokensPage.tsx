import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { KeyRound, Plus, Users } from "lucide-react";
import {
  createApiTokenSchema,
  defaultApiTokenDays,
  maxApiTokenDays,
  type ApiTokenRow,
  type CreateApiTokenInput,
  type CreateApiTokenValues,
  type CreatedApiToken,
} from "../../domain/api-tokens";
import { operatorRoles, roleAtLeast } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { maxLengthOf } from "../../domain/text";
import { errorMessage } from "../api/client";
import { useAuth } from "../auth/AuthProvider";
import { useCan } from "../auth/permissions";
import { useConfirmAction } from "../components/ConfirmAction";
import { DataTable } from "../components/DataTable";
import { useEntityForm } from "../components/EntityForm";
import { titleCase } from "../components/format";
import { FormError, ModalActions } from "../components/forms";
import { EmptyState, Field } from "../components/inputs";
import { Modal, notify } from "../components/overlays";
import { Card, ErrorState, PageHeader } from "../components/ui";
import { PlatformPicker } from "../platforms/public";
import { myTokensQuery, useCreateToken, useRevokeMyToken } from "./queries";
import { NewTokenModal, tokenColumns, useNow } from "./TokenParts";

/**
 * API tokens (user menu, any role; docs/identity.md "API tokens"): the operator's own tokens with
 * their prefix, role, creation, expiry and last use; Create Token (name, a role no higher than
 * their own, expiry in days) shows the new token once with Copy; Revoke asks first. Admins also
 * get a link to every operator's tokens.
 */
export default function ApiTokensPage() {
  const isAdmin = useCan("admin");
  const tokens = useQuery(myTokensQuery());
  const revoke = useRevokeMyToken();
  const now = useNow();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const confirm = useConfirmAction<ApiTokenRow, string>({
    mutation: revoke,
    title: msg.apiTokens.revoke,
    message: (t) => msg.apiTokens.revokeConfirm(t.name),
    confirmLabel: msg.apiTokens.revoke,
    tone: "error",
    variables: (t) => t.token_id,
    done: () => notify(msg.apiTokens.revoked),
  });
  return (
    <>
      <PageHeader
        title={msg.apiTokens.title}
        subtitle={msg.apiTokens.subtitle}
        actions={
          <>
            {isAdmin ? (
              <Link to="/api-tokens" className="btn btn-ghost btn-sm">
                <Users className="h-4 w-4" aria-hidden /> {msg.apiTokens.allLink}
              </Link>
            ) : null}
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden /> {msg.apiTokens.create}
            </button>
          </>
        }
      />
      {tokens.isError ? (
        <ErrorState
          title={msg.apiTokens.loadError}
          message={errorMessage(tokens.error)}
          onRetry={() => void tokens.refetch()}
        />
      ) : (
        <Card bodyClassName="p-0">
          <DataTable
            label={msg.apiTokens.title}
            columns={tokenColumns<ApiTokenRow>(confirm.ask, now)}
            rows={tokens.data?.items}
            rowKey={(t) => t.token_id}
            loading={tokens.isPending}
            empty={<EmptyState title={msg.apiTokens.empty} />}
          />
        </Card>
      )}
      <CreateTokenModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setCreated(token);
        }}
      />
      <NewTokenModal created={created} onClose={() => setCreated(null)} />
      {confirm.dialog}
    </>
  );
}

const newToken = (): CreateApiTokenInput => ({
  name: "",
  role: "viewer",
  expires_in_days: defaultApiTokenDays,
  platform_id: null,
});

/**
 * Create Token: name, role (the operator's own and below), expiry in days (1–365, 90 by default),
 * and optionally one platform: a delivery token, which reads that platform's prompts only.
 */
function CreateTokenModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (token: CreatedApiToken) => void;
}) {
  const { operator } = useAuth();
  const roles = operatorRoles.filter((r) => roleAtLeast(operator?.role, r));
  const create = useCreateToken();
  const { form, serverError, setServerError, submit } = useEntityForm<CreateApiTokenInput, CreateApiTokenValues>(
    createApiTokenSchema,
    newToken(),
    async (values) => {
      const token = await create.mutateAsync(values);
      form.reset(newToken());
      onCreated(token);
    },
    { guard: false },
  );
  const close = () => {
    form.reset(newToken());
    setServerError(null);
    onClose();
  };
  const { errors, isSubmitting } = form.formState;
  return (
    <Modal open={open} title={msg.apiTokens.create} onClose={close}>
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <FormError message={serverError} />
        <Field
          label={msg.apiTokens.name}
          htmlFor="token-name"
          required
          error={errors.name?.message}
          hint={msg.apiTokens.nameHint}
        >
          <input
            id="token-name"
            className="input w-full"
            autoComplete="off"
            maxLength={maxLengthOf(createApiTokenSchema.shape.name)}
            {...form.register("name")}
          />
        </Field>
        <Field
          label={msg.apiTokens.role}
          htmlFor="token-role"
          error={errors.role?.message}
          hint={msg.apiTokens.roleHint}
        >
          <select id="token-role" className="select w-full" {...form.register("role")}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {titleCase(r)}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label={msg.apiTokens.expiresInDays}
          htmlFor="token-days"
          error={errors.expires_in_days?.message}
          hint={msg.apiTokens.expiryHint}
        >
          <input
            id="token-days"
            type="number"
            className="input w-full"
            min={1}
            max={maxApiTokenDays}
            step={1}
            {...form.register("expires_in_days", { valueAsNumber: true })}
          />
        </Field>
        <Field
          label={msg.delivery.tokenPlatform}
          htmlFor="token-platform"
          error={errors.platform_id?.message}
          hint={msg.delivery.tokenPlatformHint}
        >
          <PlatformPicker
            id="token-platform"
            label={msg.delivery.tokenPlatform}
            field
            value={form.watch("platform_id") ?? undefined}
            onChange={(value) =>
              form.setValue("platform_id", value ?? null, { shouldValidate: form.formState.isSubmitted })
            }
            emptyLabel={msg.delivery.tokenPlatformNone}
          />
        </Field>
        <ModalActions
          onCancel={close}
          icon={KeyRound}
          submitLabel={msg.apiTokens.create}
          busyLabel={msg.apiTokens.creating}
          busy={isSubmitting}
        />
      </form>
    </Modal>
  );
}
