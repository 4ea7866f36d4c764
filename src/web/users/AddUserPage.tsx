import { Link, useNavigate } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import { BackLink } from "../components/detail";
import { FormCard, FormPage } from "../components/forms";
import { notify } from "../components/overlays";
import { useDocumentTitle } from "../components/ui";
import { useCreateUser } from "./queries";
import { UserForm } from "./UserForm";

/**
 * SPEC.md §2 "/users/add": on success opens /users, with "User created" and a link to the new user.
 */
export default function AddUserPage() {
  const navigate = useNavigate();
  const create = useCreateUser();
  useDocumentTitle(msg.users.addTitle, msg.nav.users);

  return (
    <FormPage back={<BackLink to="/users" label={msg.users.backToList} />}>
      <FormCard title={msg.users.addTitle} subtitle={msg.users.addSubtitle}>
        <UserForm
          cancel={(allowLeave) => <Link to="/users" activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} className="btn btn-ghost" onClick={allowLeave}>{msg.ui.cancel}</Link>}
          onSubmit={async (values) => {
            const user = await create.mutateAsync(values);
            notify(msg.users.created, { link: { label: user.email, to: "/users/$userId", params: { userId: user.user_id } } });
            await navigate({ to: "/users" });
          }}
        />
      </FormCard>
    </FormPage>
  );
}
