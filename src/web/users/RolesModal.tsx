import { z } from "zod";
import { shellMsg } from "../../domain/messages/common";
import { uiMsg } from "../../domain/messages/kit";
import { usersMsg } from "../../domain/messages/users";
import { knownSet, userRoles } from "../../domain/enums";
import { updateUserSchema, type UserListItem } from "../../domain/users";
import { EntityForm, type FieldSpec } from "../components/EntityForm";
import { displayName } from "../components/format";
import { Modal, notify } from "../components/overlays";
import { useUpdateUser } from "./queries";

const rolesSchema = z.strictObject({ roles: updateUserSchema.shape.roles.unwrap() });
type RolesInput = z.input<typeof rolesSchema>;
const rolesFields: FieldSpec<RolesInput>[] = [
  { kind: "checkboxes", name: "roles", label: usersMsg.roles, options: userRoles },
];
/** The roles of a user as the form takes them: the known ones, in the console's order. */
const rolesOf = (u: { roles?: unknown }): RolesInput => ({
  roles: knownSet(userRoles, u.roles),
});

/**
 * A member's roles changed from the team page (issue 46), so that a team lead is made without
 * leaving the team: the user's roles of `users_roles` (SPEC.md §3), saved as the user's edit saves
 * them (PATCH /api/users/{userId} `{ roles }` with the version the row was read at). A colleague's
 * change to the roles since merges (roles added and removed on both sides are kept); a change of
 * theirs the form cannot merge shows who changed what, with Reload and Save anyway.
 */
export function RolesModal({ user, onClose }: { user: UserListItem | null; onClose: () => void }) {
  const update = useUpdateUser(user?.user_id ?? "");
  const name = user ? displayName(user) : "";
  return (
    <Modal open={user !== null} title={usersMsg.rolesOf(name)} onClose={onClose}>
      {user ? (
        <EntityForm
          key={`${user.user_id}@${user.updated_at}`}
          schema={rolesSchema}
          defaults={rolesOf(user)}
          fields={rolesFields}
          version={{ updatedAt: user.updated_at, reset: rolesOf }}
          onSubmit={async ({ roles }, { ifMatch }) => {
            await update.mutateAsync({ roles, ifMatch });
            notify(usersMsg.rolesSaved(name));
            onClose();
          }}
          submitLabel={usersMsg.saveRoles}
          busyLabel={uiMsg.saving}
          cancel={
            <button type="button" className="btn btn-ghost" onClick={onClose}>
              {shellMsg.ui.cancel}
            </button>
          }
        />
      ) : null}
    </Modal>
  );
}
