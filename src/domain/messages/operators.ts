/**
 * The Operators screen and its API.
 */

export const operatorsMsg = {
  title: "Operators",
  subtitle: "Staff who can sign in to the console, and what they may do",
  notFound: "Operator not found",
  emailTaken: "An operator with this email already exists",
  nameRequired: "Name is required",
  notSelf: "You cannot remove your own admin role or deactivate yourself",
  roleHint: "Viewer: read only. Editor: read and change customer data. Admin: everything, including operators.",
  passwordHint: "Generated; hand it over securely.",
  create: "Create Operator",
  creating: "Creating...",
  notSelfReset: "Change your own password with Change password in the user menu, which asks for the current one",
  lastAdmin: "The console needs at least one active admin: make another operator an admin first",
  loadError: "Error loading operators",
  created: "Operator created successfully!",
  updated: "Operator updated successfully!",
  passwordReset: "Password reset successfully! The operator's sessions and API tokens have ended.",
  sessionsRevoked: "Sessions and API tokens ended successfully!",
  unlocked: "Operator unlocked successfully!",
} as const;
