/**
 * The dashboard (docs/dashboard.md): its cards, Needs attention (which the lists' filters name
 * too), Trends and Recent activity.
 */

export const dashboardMsg = {
  title: "Dashboard",
  totalCustomers: "Total Customers",
  totalUsers: "Total Users",
  totalTeams: "Total Teams",
  /** Users who have signed in: not "Active", which everywhere else is the status. */
  signedInUsers: "Signed in at least once",
  loadError: "Failed to load dashboard statistics",
} as const;

/** The dashboard's sections below the spec's cards (docs/dashboard.md). */
export const attentionMsg = {
  title: "Needs attention",
  loadError: "Failed to load what needs attention",
  pendingComments: "Comments pending review",
  pendingChanges: "Prompt changes waiting for review",
  trialCustomers: "Trial customers",
  trialOldest: (name: string, age: string) => `Oldest: ${name}, ${age}`,
  teamsWithoutSkills: "Active teams with no active skill",
  usersNeverSignedIn: "Users who never signed in",
  skillsWithoutPrompts: "Skills with no prompt",
  promptsWithoutPlatforms: "Active prompts with no platform",
  none: "None",
  asOf: (time: string) => `Team, skill and prompt counts as of ${time}`,
  /** The list filters the figures open (each list keeps them visible and editable). */
  skillsFilter: "Skills",
  anySkills: "Any skills",
  noActiveSkill: "No active skill",
  promptsFilter: "Prompts",
  anyPrompts: "Any prompts",
  noPrompt: "No prompt",
  platformsFilter: "Platforms",
  anyPlatforms: "Any platforms",
  noPlatform: "No platform",
  statusFilter: "Status",
  allStatuses: "All Statuses",
  neverSignedIn: "Never signed in",
} as const;

export const trendsMsg = {
  title: "Trends",
  loadError: "Failed to load the trends",
  signIns: (days: string) => `Sign-ins per day (last ${days} days)`,
  signInsHint: "Users by the day of their last sign-in",
  newUsers: (days: string) => `New users per week (last ${days} days)`,
  range: "Range",
  rangeOption: (days: string) => `${days} days`,
  dayHint: "Select a day to open its users",
  weekHint: "Select a week to open its users",
  openPoint: (label: string, users: string) => `${label}: ${users} users, open the list`,
  day: "Day",
  week: "Week starting",
  users: "Users",
  dataTable: "Data table",
} as const;

export const activityMsg = {
  title: "Recent activity",
  loadError: "Failed to load recent activity",
  own: "Your last 10 changes and sign-ins",
  all: "The last 10 entries of the audit log",
  empty: "No activity yet",
  by: (who: string) => `by ${who}`,
  system: "the server",
  viewAll: "Open the audit log",
} as const;
