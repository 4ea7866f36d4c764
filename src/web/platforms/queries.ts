import { z } from "zod";
import { deletedPlatformResultSchema, deletedResultSchema } from "../../domain/deleted";
import { proposedResultSchema } from "../../domain/prompt-changes";
import { platformPromptPageSchema, platformRecords } from "../../domain/platforms";
import { api } from "../api/client";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

/** GET /api/platforms and /api/platforms/{id}, POST, and PATCH (Edit, Archive, Activate): the platform screens' queries. */
export const platforms = entityQueries(queryRoots.platforms, "/platforms", platformRecords);
/** Query keys of platforms (everything about one platform under its `detail` key). */
export const { keys: platformKeys } = platforms;

/** The platform page's prompts. */
export const platformPromptsQuery = platforms.nested("prompts", platformPromptPageSchema);

/** A platform change shows up in platforms and in the prompts' Platforms column and assignments. */
export const platformChanges = { invalidates: [queryRoots.platforms, queryRoots.prompts] };

/** Delete (with `cascade`, its prompt assignments too). */
export const useDeletePlatform = (id: string) =>
  useApiMutation(
    (cascade: boolean) =>
      api(`/platforms/${id}`, deletedPlatformResultSchema, {
        method: "DELETE",
        query: cascade ? { cascade: "true" } : undefined,
      }),
    { removes: [platformKeys.detail(id)], invalidates: [platformKeys.lists(), queryRoots.prompts] },
  );

/** Unassign a prompt from the platform page; under review (202) the unassignment is proposed instead. */
export const useUnassignPrompt = (platformId: string) =>
  useApiMutation(
    (promptId: string) =>
      api(`/prompts/${promptId}/platforms/${platformId}`, z.union([proposedResultSchema, deletedResultSchema]), {
        method: "DELETE",
      }),
    platformChanges,
  );
