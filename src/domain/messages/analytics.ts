/**
 * The Analytics screen.
 */

export const analyticsMsg = {
  title: "Analytics",
  text: "Authentication data and usage analytics COMING SOON.",
  subtitle: "Customers, sign-ins, skills, comments and prompts, from the database",
  range: "Range",
  lastDays: (n: number) => `Last ${n} days`,
  dataTable: "Data table",
  downloadCsv: (title: string) => `Download CSV: ${title}`,
  loadError: "Error loading analytics",
  /** Under each figure: when its aggregate ran (costly figures are refreshed every minute). */
  asOf: (time: string) => `As of ${time}`,
} as const;
