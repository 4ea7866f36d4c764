import { useQuery } from "@tanstack/react-query";
import { promptChangeStatuses } from "../../domain/enums";
import { reviewsMsg } from "../../domain/messages/reviews";
import { platformOptionSchema, platformOptionsSchema } from "../../domain/platforms";
import { skillOptionSchema, skillOptionsSchema } from "../../domain/skills";
import { useAuth } from "../auth/AuthProvider";
import { optionsPicker } from "../components/EntityPicker";
import { FilterSelect } from "../components/inputs";
import type { ServerList } from "../lib/server-list";
import { queryRoots } from "../lib/query-client";
import { reviewListQuery } from "./queries";

/** "Skill": every skill by name (`/api/skills/options`), "All Skills" clears it. */
const SkillFilter = optionsPicker({
  path: "/skills/options",
  page: skillOptionsSchema,
  one: skillOptionSchema,
  option: (s) => ({ id: s.skill_id, label: s.skill_name }),
  root: queryRoots.skills,
  labels: { label: reviewsMsg.columns.skill, placeholder: "Type a skill name...", all: reviewsMsg.allSkills },
}).Filter;

/** "Platform": every platform by name (`/api/platforms/options`), "All Platforms" clears it. */
const PlatformFilter = optionsPicker({
  path: "/platforms/options",
  page: platformOptionsSchema,
  one: platformOptionSchema,
  option: (p) => ({ id: p.platform_id, label: p.platform_name }),
  root: queryRoots.platforms,
  labels: {
    label: reviewsMsg.columns.platform,
    placeholder: "Type a platform name...",
    all: reviewsMsg.allPlatforms,
  },
}).Filter;

/**
 * "Author": "All Authors", "My changes", and the authors of the changes in the chosen status (the
 * first hundred, oldest first: a review queue is short); an author given in the URL stays listed.
 */
function AuthorFilter({
  value,
  status,
  onChange,
}: {
  value: string | undefined;
  status: string | undefined;
  onChange: (id: string | undefined) => void;
}) {
  const me = useAuth().operator;
  const authors = useQuery({
    ...reviewListQuery({ status, sort: "proposed_at", order: "asc", limit: 100 }),
    select: (page) => {
      const seen = new Map<string, string>();
      for (const c of page.items) seen.set(c.proposed_by, c.proposed_by_email ?? reviewsMsg.unknownAuthor);
      return seen;
    },
  });
  const others = [...(authors.data ?? new Map<string, string>())].filter(([id]) => id !== me?.id);
  if (value && value !== me?.id && !others.some(([id]) => id === value)) others.push([value, value]);
  return (
    <FilterSelect label={reviewsMsg.columns.author} value={value ?? ""} onChange={(v) => onChange(v || undefined)}>
      <option value="">{reviewsMsg.allAuthors}</option>
      {me ? <option value={me.id}>{reviewsMsg.mine}</option> : null}
      {others
        .sort((a, b) => a[1].localeCompare(b[1]))
        .map(([id, email]) => (
          <option key={id} value={id}>
            {email}
          </option>
        ))}
    </FilterSelect>
  );
}

/** The Reviews queue's filters: Status (Pending unless chosen, or All Statuses), Platform, Skill, Author; each in the URL. */
export function ReviewFilters({ list }: { list: Pick<ServerList, "state" | "setFilter"> }) {
  const { status, platform, skill, author } = list.state.filters;
  return (
    <>
      <FilterSelect
        label={reviewsMsg.statusTitle}
        value={status ?? "pending"}
        onChange={(v) => list.setFilter({ status: v === "pending" ? undefined : v })}
      >
        {promptChangeStatuses.map((s) => (
          <option key={s} value={s}>
            {reviewsMsg.statusLabels[s]}
          </option>
        ))}
        <option value="all">{reviewsMsg.allStatuses}</option>
      </FilterSelect>
      <PlatformFilter value={platform} onChange={(v) => list.setFilter({ platform: v })} />
      <SkillFilter value={skill} onChange={(v) => list.setFilter({ skill: v })} />
      <AuthorFilter value={author} status={status} onChange={(v) => list.setFilter({ author: v })} />
    </>
  );
}
