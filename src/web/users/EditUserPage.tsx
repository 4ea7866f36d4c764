import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import { updateUserSchema } from "../../domain/users";
import { EntityForm } from "../components/EntityForm";
import { displayName } from "../components/format";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { userKeys, userQuery, useUpdateUser } from "./queries";
import { userEditFields, userRecord, userValues, userWarnings } from "./UserForm";

/**
 * /users/{userId}/edit (docs/editing.md): names, job title, status and roles, prefilled; saved with
 * the version read (a stale save shows who changed what since); an e-mail outside the customer's
 * domains asks first; on success back to the user with "User updated".
 */
export default function EditUserPage() {
  const { userId } = useParams({ from: "/users/$userId/edit" });
  const query = useQuery(userQuery(userId));
  const update = useUpdateUser(userId);
  const queryClient = useQueryClient();
  const back = { to: "/users/$userId", params: { userId } };
  return (
    <FormScreen
      section={msg.nav.users}
      title={msg.users.editTitle}
      subtitle={(u) => (
        <span className="block truncate" title={u.email}>
          {u.email} · {msg.users.editSubtitle}
        </span>
      )}
      back={{ ...back, label: msg.users.backToUser }}
      load={{ query, name: (u) => displayName(u), kind: userRecord }}
      fields={5}
    >
      {({ record: user, cancel, finish, locked }) => (
        <EntityForm
          schema={updateUserSchema}
          fields={userEditFields}
          defaults={userValues(user)}
          version={{
            updatedAt: user.updated_at,
            reset: (current) => userValues(current as never),
            onReload: () => void queryClient.invalidateQueries({ queryKey: userKeys.detail(userId) }),
          }}
          warnings={userWarnings}
          locked={locked}
          submitLabel={msg.edit.save}
          busyLabel={msg.edit.saving}
          cancel={cancel}
          onSubmit={async ({ confirm_domain: _c, ...values }, { ifMatch, confirmed }) => {
            await update.mutateAsync({
              ...values,
              roles: values.roles ?? [],
              ifMatch,
              confirm_domain: confirmed.includes("domain_mismatch") || undefined,
            });
            notify(msg.users.updated);
            await finish(back);
          }}
        />
      )}
    </FormScreen>
  );
}
