import type { OperatorApiTokenRow } from "../../domain/api-tokens";
import { apiTokensMsg } from "../../domain/messages/tokens";
import { useConfirmAction } from "../components/ConfirmAction";
import { column } from "../components/columns";
import { EmptyState } from "../components/inputs";
import { gatedScreen, ListScreen } from "../components/ListScreen";
import { notify } from "../components/overlays";
import { Truncate } from "../components/text";
import { useServerList } from "../lib/server-list";
import { allTokensQuery, useRevokeAnyToken } from "./queries";
import { tokenColumns, useNow } from "./TokenParts";

/**
 * Every operator's API tokens (admins; linked from the Operators screen and the API tokens page):
 * the operator's email beside each token's columns, newest first, searchable, paged, exportable;
 * Revoke ends any of them at once after a confirm.
 */
export default gatedScreen("admin", apiTokensMsg.allTitle, AllApiTokensScreen);

function AllApiTokensScreen() {
  const list = useServerList<OperatorApiTokenRow>({
    mode: "url",
    defaults: { sort: "created_at", order: "desc" },
    query: allTokensQuery,
  });
  const revoke = useRevokeAnyToken();
  const now = useNow();
  const confirm = useConfirmAction<OperatorApiTokenRow, string>({
    mutation: revoke,
    title: apiTokensMsg.revoke,
    message: (t) => `${t.operator_email}: ${apiTokensMsg.revokeConfirm(t.name)}`,
    confirmLabel: apiTokensMsg.revoke,
    tone: "error",
    variables: (t) => t.token_id,
    done: () => notify(apiTokensMsg.revoked),
  });
  const columns = [
    column<OperatorApiTokenRow>("operator_email", apiTokensMsg.operator, (t) => (
      <Truncate text={t.operator_email} className="text-sm" />
    )),
    ...tokenColumns<OperatorApiTokenRow>(confirm.ask, now),
  ];
  return (
    <ListScreen
      list={list}
      title={apiTokensMsg.allTitle}
      subtitle={apiTokensMsg.allSubtitle}
      search={apiTokensMsg.searchPlaceholder}
      exportPath="/api-tokens"
      record={{ key: (t) => t.token_id }}
      table={{
        label: apiTokensMsg.allTitle,
        columns,
        sortable: ["created_at", "expires_at"],
        empty: <EmptyState title={apiTokensMsg.allEmpty} />,
      }}
      errorTitle={apiTokensMsg.loadError}
    >
      {confirm.dialog}
    </ListScreen>
  );
}
