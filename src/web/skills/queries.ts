import { assignmentChangeResultSchema } from "../../domain/deleted";
import type { CreateSkillPromptInput } from "../../domain/prompts";
import {
  assignableTeamPageSchema,
  bulkAssignResultSchema,
  skillAssignmentPageSchema,
  skillAssignmentResultSchema,
  skillCommentPageSchema,
  skillPromptPageSchema,
  skillPromptSchema,
  skillRecords,
} from "../../domain/skills";
import { api } from "../api/client";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

const skills = entityQueries(queryRoots.skills, "/skills", skillRecords);
/** Query keys of skills (everything about one skill under its `detail` key), GET /api/skills and /api/skills/{id}. */
export const { keys: skillKeys, listQuery: skillListQuery, detailQuery: skillQuery } = skills;

/** The skill page's Team Assignments table. */
export const skillAssignmentsQuery = skills.nested("teams", skillAssignmentPageSchema);
/** The Assign modal's candidates: active teams with no record for the skill. */
export const assignableTeamsQuery = skills.nested("assignable", assignableTeamPageSchema, "assignable-teams");
/** The skill page's Prompts panel. */
export const skillPromptsQuery = skills.nested("prompts", skillPromptPageSchema);
/** The skill page's Comments table. */
export const skillCommentsQuery = skills.nested("comments", skillCommentPageSchema);

/** Everything a skill change can show up in: skills, the teams' skill counts and lists, customers' team tables. */
const skillChanges = { invalidates: [queryRoots.skills, queryRoots.teams, queryRoots.customers] };

/** POST /api/skills (SPEC.md §5 "Skill create"). */
export const useCreateSkill = skills.creates({ invalidates: [queryRoots.skills] });

/** PATCH /api/skills/{id}: Edit, Archive (`{ status: "inactive" }`), Unarchive. */
export const useUpdateSkill = skills.updates(skillChanges);

/** Delete; it also leaves the teams' skill counts and lists and the customers' team tables. */
export const useDeleteSkill = skills.deletes([queryRoots.teams, queryRoots.customers]);

/** Assign to one team, or to several at once (one transaction). */
export const useAssignTeams = (id: string) =>
  useApiMutation(
    async (teamIds: string[]) =>
      teamIds.length === 1
        ? (await api(`/skills/${id}/teams`, skillAssignmentResultSchema, {
            method: "POST",
            body: { team_id: teamIds[0] },
          }),
          { created: 1 })
        : api(`/skills/${id}/teams/bulk`, bulkAssignResultSchema, { method: "POST", body: { team_ids: teamIds } }),
    skillChanges,
  );

/** Unassign (inactive) or Reassign (active) one team's assignment. */
export const useSetAssignment = (id: string) =>
  useApiMutation(
    ({ teamId, status }: { teamId: string; status: "active" | "inactive" }) =>
      api(`/skills/${id}/teams/${teamId}`, assignmentChangeResultSchema, { method: "PATCH", body: { status } }),
    skillChanges,
  );

/** Add Prompt from the skill page. */
export const useAddPrompt = (id: string) =>
  useApiMutation(
    (input: CreateSkillPromptInput) => api(`/skills/${id}/prompts`, skillPromptSchema, { method: "POST", body: input }),
    {
      invalidates: [skillKeys.detail(id), queryRoots.prompts],
    },
  );
