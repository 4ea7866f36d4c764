/**
 * The customer screens.
 */

export const customersMsg = {
  customer: "Customer",
  loadError: "Error loading customers",
  loadErrorWith: (message: string) => `Error loading customers: ${message}`,
  loadOneError: "Error loading customer",
  notFound: "Customer not found",
  nameRequired: "Customer name is required",
  empty: "No customers found",
  noData: "No data available",
  addTitle: "Add New Customer",
  noDomains: "No domains configured",
  statusInvalid: "Status must be Active, Inactive or Trial",
  archived: "Customer archived successfully!",
  unarchived: "Customer unarchived successfully!",
  created: "Customer created",
  backToList: "Back to Customers",
  addSubtitle: "Create a customer organization. You can add teams and users afterwards.",
  create: "Create Customer",
  creating: "Creating...",
  domainsHint: "One per line or comma-separated, e.g. example.com",
  domainsInvalid: "Valid domains must be text",
  editTitle: "Edit Customer",
  editSubtitle: "Change the customer's name, status and domains.",
  backToCustomer: "Back to Customer",
  updated: "Customer updated",
} as const;
