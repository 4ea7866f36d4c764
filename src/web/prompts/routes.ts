import type { AnyRoute } from "@tanstack/react-router";
import { promptStatuses } from "../../domain/enums";
import { promptSortKeys } from "../../domain/sort-keys";
import type { RouteKit } from "../lib/routes";
import { listSearchSchema, oneOf } from "../lib/url-search";

/** URL parameters of /prompts. */
export const promptsSearch = listSearchSchema(promptSortKeys, { status: oneOf(promptStatuses) });

/** The prompt screens (SPEC.md §2). */
export const promptRoutes = <R extends AnyRoute>({ page, searchPage }: RouteKit<R>) => [
  searchPage("/prompts", promptsSearch, () => import("./PromptsPage")),
  page("/prompts/add", () => import("./AddPromptPage")),
  page("/prompts/$promptId", () => import("./PromptDetailPage")),
  page("/prompts/$promptId/edit", () => import("./EditPromptPage")),
];
