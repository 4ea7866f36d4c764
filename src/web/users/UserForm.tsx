import { useParams } from "@tanstack/react-router";
import { known, knownSet, userRoles, userStatuses } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { customersMsg } from "../../domain/messages/customers";
import { editMsg } from "../../domain/messages/edit";
import { usersMsg } from "../../domain/messages/users";
import {
  createUserSchema,
  updateUserSchema,
  type CreateUserInput,
  type UpdateUserInput,
  type UserListItem,
} from "../../domain/users";
import type { ApiError } from "../api/client";
import type { FieldSpec } from "../components/EntityForm";
import { displayName } from "../components/format";
import { addScreen, editScreen, needsOneOf, type Screen } from "../components/FormScreen";
import type { RecordKind } from "../components/RecordPage";
import { flatFields } from "../components/form-values";
import { userQuery, useCreateUser, useUpdateUser } from "./queries";
import { CustomerPicker, customerOptionsQuery, directorySaveConfirm } from "../customers/public";

/**
 * The user form (SPEC.md §2 "/users/add", §5 "Add user"): Email Address (trimmed, lowercased,
 * shape-checked), Customer (a picker over active customers), Status (`userStatuses`, default
 * Active). Rendered by `EntityForm` with `createUserSchema`, with `useUserFormState`'s notice.
 */
const userFields: FieldSpec<CreateUserInput>[] = [
  {
    kind: "text",
    name: "email",
    label: "Email Address",
    required: true,
    type: "email",
    autoComplete: "off",
    placeholder: "name@company.com",
  },
  {
    kind: "picker",
    name: "customer_id",
    label: "Customer",
    required: true,
    hint: usersMsg.activeCustomersOnly,
    picker: (control) => <CustomerPicker {...control} activeOnly field />,
  },
  { kind: "select", name: "status", label: "Status", options: userStatuses },
];

/**
 * The user form's edit fields (docs/editing.md): First and Last Name, Job Title (trimmed, empty
 * saved null), Status, Roles (any of admin, manager, member, or none). The e-mail and customer
 * are fixed once the user exists. Rendered by `EntityForm` with `updateUserSchema`.
 */
const userEditFields: FieldSpec<UpdateUserInput>[] = [
  {
    kind: "row",
    fields: [
      { kind: "text", name: "first_name", label: "First Name", autoComplete: "off" },
      { kind: "text", name: "last_name", label: "Last Name", autoComplete: "off" },
    ],
  },
  { kind: "text", name: "job_title", label: "Job Title", autoComplete: "off" },
  { kind: "select", name: "status", label: "Status", options: userStatuses },
  { kind: "checkboxes", name: "roles", label: usersMsg.roles, options: userRoles },
];

/** The edit fields' labels by name, for naming the fields the directory's next sync overwrites. */
const userEditLabels = Object.fromEntries(flatFields(userEditFields).map((f) => [f.name, f.label]));

/** The form's values for a user being edited (also a stale save's current record on Reload). */
const userValues = (
  u: Pick<UserListItem, "first_name" | "last_name" | "job_title" | "status" | "roles">,
): UpdateUserInput => ({
  first_name: u.first_name ?? "",
  last_name: u.last_name ?? "",
  job_title: u.job_title ?? "",
  status: known(userStatuses, u.status),
  roles: knownSet(userRoles, u.roles),
});

/** The 409 `domain_mismatch` warning of the user form: the customer's domains. */
const userWarnings = {
  domain_mismatch: (error: ApiError) => {
    const domains = (error.body as { error?: { customer_domains?: string[] } })?.error?.customer_domains ?? [];
    return <p>{editMsg.customerDomains(domains.join(", "))}</p>;
  },
};

/**
 * The customers' state above the form: "Error loading customers: {message}" or "No active customers
 * found. Please create a customer first." (SPEC.md §5); the form is disabled until one can be chosen.
 */
const useUserFormState = needsOneOf(customerOptionsQuery(true), {
  error: customersMsg.loadErrorWith,
  none: usersMsg.noActiveCustomers,
});

/** A user as their page and edit screen load them: a 404 says "Error loading user" / "User not found". */
export const userRecord: RecordKind = {
  section: navMsg.users,
  errorTitle: usersMsg.loadOneError,
  notFound: { title: usersMsg.loadOneError, message: usersMsg.notFound },
  list: { to: "/users", label: usersMsg.backToList },
};

/** Whether the operator confirmed an e-mail outside the customer's domains. */
const confirmDomain = (confirmed: string[]) => confirmed.includes("domain_mismatch") || undefined;

/**
 * SPEC.md §2 "/users/add": on success opens /users, with "User created" and a link to the new user.
 */
export const AddPage: Screen = addScreen({
  kind: userRecord,
  texts: usersMsg,
  schema: createUserSchema,
  fields: userFields,
  warnings: userWarnings,
  useFormState: useUserFormState,
  defaults: { email: "", customer_id: "", status: "active" },
  useCreate: useCreateUser,
  send: ({ confirm_domain: _c, ...values }, { confirmed }) => ({ ...values, confirm_domain: confirmDomain(confirmed) }),
  created: (user) => ({
    to: { to: "/users" },
    link: { label: user.email, to: "/users/$userId", params: { userId: user.user_id } },
  }),
});

/**
 * /users/{userId}/edit (docs/editing.md): names, job title, status and roles, prefilled; saved with
 * the version read (a stale save shows who changed what since); an e-mail outside the customer's
 * domains asks first, and so does a change of a field the customer's directory owns on a user it
 * manages (its next sync overwrites it); on success back to the user with "User updated".
 */
export const EditPage: Screen = editScreen({
  kind: userRecord,
  texts: usersMsg,
  schema: updateUserSchema,
  fields: userEditFields,
  warnings: userWarnings,
  useId: () => useParams({ from: "/users/$userId/edit" }).userId,
  query: userQuery,
  values: userValues,
  name: (u) => displayName(u),
  subtitle: (u) => (
    <span className="block truncate" title={u.email}>
      {u.email} · {usersMsg.editSubtitle}
    </span>
  ),
  useUpdate: useUpdateUser,
  send: ({ confirm_domain: _c, ...values }, { ifMatch, confirmed }) => ({
    ...values,
    roles: values.roles ?? [],
    ifMatch,
    confirm_domain: confirmDomain(confirmed),
  }),
  back: (userId) => ({ to: "/users/$userId", params: { userId }, label: usersMsg.backToUser }),
  reload: true,
  skeleton: 5,
  confirmSave: (u, changed) => directorySaveConfirm(u, "user", userEditLabels, changed),
});
