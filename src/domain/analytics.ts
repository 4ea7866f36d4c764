import { z } from "zod";

/**
 * The analytics figures (SPEC.md §2 "/analytics", made real): each is one SQL aggregate answered as
 * rows of `label` and one or more numeric series, so that every chart has the same table fallback
 * and CSV download.
 */
export const analyticsFigures = [
  "customers-by-status",
  "sign-ins",
  "top-skills",
  "score-by-type",
  "comments-per-week",
  "prompts-by-status",
] as const;
export type AnalyticsFigure = (typeof analyticsFigures)[number];

/** Ranges of the sign-ins figure, in days. */
export const signInRanges = [7, 30, 90] as const;

export const analyticsInfo: Record<
  AnalyticsFigure,
  {
    title: string;
    label: string;
    series: Record<string, string>;
    kind: "bar" | "line" | "stacked";
    /**
     * What a row's label is, for how screens write it: a record's status (coloured like that kind's
     * badges), another stored value ("agent" → "Agent"), a date ("Nov 3"), or a name as it is.
     */
    labels: { status: "customer" | "prompt" } | "value" | "date" | "name";
    /** Series that are statuses of this kind of record, coloured like its badges. */
    seriesStatus?: "comment";
  }
> = {
  "customers-by-status": {
    title: "Customers by status",
    label: "Status",
    series: { customers: "Customers" },
    kind: "bar",
    labels: { status: "customer" },
  },
  "sign-ins": {
    title: "Users by day of last sign-in",
    label: "Day",
    series: { users: "Users" },
    kind: "line",
    labels: "date",
  },
  "top-skills": {
    title: "Top 10 skills by active team assignments",
    label: "Skill",
    series: { assignments: "Active assignments" },
    kind: "bar",
    labels: "name",
  },
  "score-by-type": {
    title: "Average assignment score by skill type",
    label: "Skill type",
    series: { average_score: "Average score (%)", assignments: "Scored assignments" },
    kind: "bar",
    labels: "value",
  },
  "comments-per-week": {
    title: "Comments per status per week (last 12 weeks)",
    label: "Week starting",
    series: { pending: "Pending", active: "Active", inactive: "Inactive", rejected: "Rejected" },
    kind: "stacked",
    labels: "date",
    seriesStatus: "comment",
  },
  "prompts-by-status": {
    title: "Prompts by status",
    label: "Status",
    series: { prompts: "Prompts" },
    kind: "bar",
    labels: { status: "prompt" },
  },
};

/** One figure: its rows (a label and a number per series), and when it was computed. */
export const analyticsFigureSchema = z.object({
  figure: z.enum(analyticsFigures),
  rows: z.array(z.object({ label: z.string(), values: z.record(z.string(), z.number().nullable()) })),
  as_of: z.string(),
});
export type AnalyticsFigureData = z.infer<typeof analyticsFigureSchema>;
