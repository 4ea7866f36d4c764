import { directoryMsg } from "../../domain/directory-messages";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { createDirectoryTokenSchema, type CreatedDirectoryToken, type DirectoryState } from "../../domain/directory";
import { apiTokensMsg } from "../../domain/messages/tokens";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { sectionAddAction } from "../components/actions";
import { Tag } from "../components/badges";
import { column } from "../components/columns";
import { useConfirmAction } from "../components/ConfirmAction";
import { DataTable } from "../components/DataTable";
import { InfoList, Section } from "../components/detail";
import type { FieldSpec } from "../components/EntityForm";
import { EmptyState } from "../components/inputs";
import { ModalForm } from "../components/ModalForm";
import { notify } from "../components/overlays";
import { DateText, Muted, RelativeTime } from "../components/text";
import { ErrorState } from "../components/ui";
import { NewTokenModal, revokeColumn, revokedOr, tokenNameColumns } from "../tokens/public";
import { directoryQuery, useCreateDirectoryToken, useRevokeDirectoryToken } from "./directory-queries";

type TokenRow = DirectoryState["tokens"][number];
type ErrorRow = DirectoryState["errors"][number];

const nameField: FieldSpec<{ name: string }>[] = [
  {
    kind: "text",
    name: "name",
    label: directoryMsg.tokenName,
    required: true,
    hint: directoryMsg.nameHint,
    autoComplete: "off",
  },
];

/**
 * The customer page's Directory sync (docs/onboarding.md): on or off, the SCIM base URL, when the
 * directory last called, today's changes, what it manages, its tokens (admins create and revoke
 * them; a new one is shown once) and its last refusals with their requests.
 */
export function DirectorySection({ customerId }: { customerId: string }) {
  const state = useQuery(directoryQuery(customerId));
  const isAdmin = useCan("admin");
  const create = useCreateDirectoryToken(customerId);
  const revoke = useRevokeDirectoryToken(customerId);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedDirectoryToken | null>(null);
  const confirm = useConfirmAction<TokenRow, string>({
    mutation: revoke,
    title: directoryMsg.revoke,
    message: (t) => directoryMsg.revokeConfirm(t.name),
    confirmLabel: directoryMsg.revoke,
    tone: "error",
    variables: (t) => t.directory_token_id,
    done: () => notify(directoryMsg.revoked),
  });
  const d = state.data;
  return (
    <Section
      title={directoryMsg.title}
      actionBar={[
        isAdmin && {
          ...sectionAddAction(directoryMsg.createToken, () => setCreating(true)),
          icon: KeyRound,
          need: "admin",
        },
      ]}
    >
      {state.isError ? (
        <ErrorState
          title={directoryMsg.loadError}
          message={errorMessage(state.error)}
          onRetry={() => void state.refetch()}
        />
      ) : (
        <>
          <InfoList
            items={[
              {
                label: directoryMsg.title,
                value: d ? (
                  <Tag tone={d.enabled ? "success" : "neutral"}>{d.enabled ? directoryMsg.on : directoryMsg.off}</Tag>
                ) : null,
              },
              { label: directoryMsg.baseUrl, value: d?.base_url, mono: true },
              {
                label: directoryMsg.lastRequest,
                value: d?.last_request_at ? (
                  <RelativeTime iso={d.last_request_at} />
                ) : (
                  <Muted>{directoryMsg.never}</Muted>
                ),
              },
              {
                label: directoryMsg.today,
                value: d ? directoryMsg.todayCounts(d.today.created, d.today.updated, d.today.deactivated) : null,
              },
              {
                label: directoryMsg.managed,
                value: d ? directoryMsg.managedCounts(d.managed.users, d.managed.teams) : null,
              },
            ]}
          />
          {d && !d.enabled ? <p className="text-sm text-base-content/70">{directoryMsg.offHint}</p> : null}
          <DataTable
            label={directoryMsg.tokens}
            columns={[
              ...tokenNameColumns<TokenRow>(directoryMsg.tokenName),
              column<TokenRow>("created_at", apiTokensMsg.created, (t) => <DateText iso={t.created_at} />),
              column<TokenRow>("last_used_at", apiTokensMsg.lastUsed, (t) =>
                revokedOr(
                  t,
                  t.last_used_at ? <RelativeTime iso={t.last_used_at} /> : <Muted>{apiTokensMsg.neverUsed}</Muted>,
                ),
              ),
              revokeColumn<TokenRow>(
                directoryMsg.revoke,
                (t) => confirm.ask(t),
                () => isAdmin,
              ),
            ]}
            rows={d?.tokens}
            rowKey={(t) => t.directory_token_id}
            loading={state.isPending}
            empty={<EmptyState title={directoryMsg.noTokens} />}
          />
          {d && d.errors.length > 0 ? (
            <DataTable
              label={directoryMsg.errors}
              columns={[
                column<ErrorRow>("when", directoryMsg.when, (e) => <RelativeTime iso={e.created_at} />),
                column<ErrorRow>("request", directoryMsg.request, (e) => (
                  <code className="block max-w-xs truncate font-mono text-xs" title={`${e.method} ${e.path}`}>
                    {e.method} {e.path}
                  </code>
                )),
                column<ErrorRow>("status", directoryMsg.status, (e) => <Tag tone="error">{e.status}</Tag>),
                column<ErrorRow>(
                  "detail",
                  directoryMsg.detail,
                  (e) => (
                    <span className="block max-w-md truncate text-sm" title={e.error ?? ""}>
                      {e.error}
                    </span>
                  ),
                  { grow: true },
                ),
              ]}
              rows={d.errors}
              rowKey={(e) => `${e.created_at}-${e.path}`}
              empty={<EmptyState title={directoryMsg.noErrors} />}
            />
          ) : null}
        </>
      )}
      <ModalForm<{ name: string }, { name: string }>
        open={creating}
        title={directoryMsg.createToken}
        onClose={() => setCreating(false)}
        schema={createDirectoryTokenSchema}
        fields={nameField}
        fresh={() => ({ name: "" })}
        save={async (values) => {
          const token = await create.mutateAsync(values);
          setCreating(false);
          setCreated(token);
        }}
        icon={KeyRound}
        submitLabel={directoryMsg.createToken}
        busyLabel={directoryMsg.creating}
      />
      <NewTokenModal
        created={created}
        onClose={() => setCreated(null)}
        title={directoryMsg.createdTitle}
        facts={(t) => (
          <>
            <span className="font-medium">{t.name}</span> · {directoryMsg.baseUrl}{" "}
            <code className="break-all font-mono text-xs">{t.base_url}</code>
          </>
        )}
      />
      {confirm.dialog}
    </Section>
  );
}
