import { z } from "zod";

/**
 * Global search (the shell's search box, SPEC.md §2 "Shell"): the kinds of record it finds, in the
 * order the results are grouped, each with its group heading and the list its "see all" opens.
 */
export const searchKinds = ["customers", "users", "teams", "skills", "prompts", "platforms"] as const;
export type SearchKind = (typeof searchKinds)[number];

/** At most this many results per kind; "see all" opens the kind's list filtered. */
export const searchPerKind = 5;

export const searchKindInfo: Record<SearchKind, { heading: string; list: string; detail: string }> = {
  customers: { heading: "Customers", list: "/customers", detail: "/customers/$id" },
  users: { heading: "Users", list: "/users", detail: "/users/$id" },
  teams: { heading: "Teams", list: "/teams", detail: "/teams/$id" },
  skills: { heading: "Skills", list: "/skills", detail: "/skills/$id" },
  prompts: { heading: "Prompts", list: "/prompts", detail: "/prompts/$id" },
  platforms: { heading: "Platforms", list: "/platforms", detail: "/platforms/$id" },
};

/** One found record: its id, what to show, and a line about it (customer, email, status...). */
export const searchHitSchema = z.object({
  id: z.guid(),
  title: z.string(),
  subtitle: z.string().nullable(),
  status: z.string().nullable(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

/** GET /api/search: per kind, the best matches (at most `searchPerKind`) and whether more match. */
export const searchResultSchema = z.object({
  q: z.string(),
  groups: z.array(z.object({ kind: z.enum(searchKinds), items: z.array(searchHitSchema), more: z.boolean() })),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** The link of a record of `kind`. */
export const searchHref = (kind: SearchKind, id: string) => searchKindInfo[kind].detail.replace("$id", id);
