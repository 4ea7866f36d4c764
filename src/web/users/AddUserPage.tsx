import { msg } from "../../domain/messages";
import { createUserSchema } from "../../domain/users";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { useCreateUser } from "./queries";
import { userDefaults, userFields, useUserFormState, userWarnings } from "./UserForm";

/**
 * SPEC.md §2 "/users/add": on success opens /users, with "User created" and a link to the new user.
 */
export default function AddUserPage() {
  const create = useCreateUser();
  const state = useUserFormState();
  return (
    <FormScreen
      section={msg.nav.users}
      title={msg.users.addTitle}
      subtitle={msg.users.addSubtitle}
      back={{ to: "/users", label: msg.users.backToList }}
    >
      {({ cancel, finish }) => (
        <EntityForm
          schema={createUserSchema}
          fields={userFields}
          defaults={userDefaults}
          warnings={userWarnings}
          {...state}
          submitLabel={msg.users.create}
          busyLabel={msg.users.creating}
          cancel={cancel}
          onSubmit={async ({ confirm_domain: _c, ...values }, { confirmed }) => {
            const user = await create.mutateAsync({
              ...values,
              confirm_domain: confirmed.includes("domain_mismatch") || undefined,
            });
            notify(msg.users.created, {
              link: { label: user.email, to: "/users/$userId", params: { userId: user.user_id } },
            });
            await finish({ to: "/users" });
          }}
        />
      )}
    </FormScreen>
  );
}
