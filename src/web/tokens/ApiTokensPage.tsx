import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { KeyRound, Plus, Users } from "lucide-react";
import {
  createApiTokenSchema,
  defaultApiTokenDays,
  type ApiTokenRow,
  type CreateApiTokenInput,
  type CreateApiTokenValues,
  type CreatedApiToken,
} from "../../domain/api-tokens";
import { operatorRoles, roleAtLeast, type OperatorRole } from "../../domain/enums";
import { apiTokensMsg, deliveryMsg } from "../../domain/messages/tokens";
import { errorMessage } from "../api/client";
import { useAuth } from "../auth/AuthProvider";
import { useCan } from "../auth/permissions";
import { useConfirmAction } from "../components/ConfirmAction";
import { DataTable } from "../components/DataTable";
import type { FieldSpec } from "../components/EntityForm";
import { ModalForm } from "../components/ModalForm";
import { EmptyState } from "../components/inputs";
import { notify } from "../components/overlays";
import { Card, ErrorState, PageHeader } from "../components/ui";
import { PlatformPicker } from "../platforms/public";
import { myTokensQuery, useCreateToken, useRevokeMyToken } from "./queries";
import { apiTokenFacts, NewTokenModal, tokenColumns, useNow } from "./TokenParts";

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
    title: apiTokensMsg.revoke,
    message: (t) => apiTokensMsg.revokeConfirm(t.name),
    confirmLabel: apiTokensMsg.revoke,
    tone: "error",
    variables: (t) => t.token_id,
    done: () => notify(apiTokensMsg.revoked),
  });
  return (
    <>
      <PageHeader
        title={apiTokensMsg.title}
        subtitle={apiTokensMsg.subtitle}
        actions={
          <>
            {isAdmin ? (
              <Link to="/api-tokens" className="btn btn-ghost btn-sm">
                <Users className="h-4 w-4" aria-hidden /> {apiTokensMsg.allLink}
              </Link>
            ) : null}
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden /> {apiTokensMsg.create}
            </button>
          </>
        }
      />
      {tokens.isError ? (
        <ErrorState
          title={apiTokensMsg.loadError}
          message={errorMessage(tokens.error)}
          onRetry={() => void tokens.refetch()}
        />
      ) : (
        <Card bodyClassName="p-0">
          <DataTable
            label={apiTokensMsg.title}
            columns={tokenColumns<ApiTokenRow>(confirm.ask, now)}
            rows={tokens.data?.items}
            rowKey={(t) => t.token_id}
            loading={tokens.isPending}
            empty={<EmptyState title={apiTokensMsg.empty} />}
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
      <NewTokenModal created={created} onClose={() => setCreated(null)} facts={apiTokenFacts} />
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

/** The Create Token form's fields: the roles offered are the operator's own and below. */
const tokenFields = (roles: readonly OperatorRole[]): FieldSpec<CreateApiTokenInput>[] => [
  {
    kind: "text",
    name: "name",
    label: apiTokensMsg.name,
    required: true,
    hint: apiTokensMsg.nameHint,
    autoComplete: "off",
  },
  { kind: "select", name: "role", label: apiTokensMsg.role, options: roles, hint: apiTokensMsg.roleHint },
  { kind: "number", name: "expires_in_days", label: apiTokensMsg.expiresInDays, hint: apiTokensMsg.expiryHint },
  {
    kind: "picker",
    name: "platform_id",
    label: deliveryMsg.tokenPlatform,
    hint: deliveryMsg.tokenPlatformHint,
    none: null,
    picker: (c) => (
      <PlatformPicker
        id={c.id}
        label={deliveryMsg.tokenPlatform}
        field
        value={c.value}
        onChange={c.onChange}
        invalid={c.invalid}
        emptyLabel={deliveryMsg.tokenPlatformNone}
      />
    ),
  },
];

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
  return (
    <ModalForm<CreateApiTokenInput, CreateApiTokenValues>
      open={open}
      title={apiTokensMsg.create}
      onClose={onClose}
      schema={createApiTokenSchema}
      fields={tokenFields(roles)}
      fresh={newToken}
      save={async (values) => onCreated(await create.mutateAsync(values))}
      icon={KeyRound}
      submitLabel={apiTokensMsg.create}
      busyLabel={apiTokensMsg.creating}
    />
  );
}
