import { useQuery } from "@tanstack/react-query";
import { promptChangeStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { platformDetailSchema, platformPageSchema } from "../../domain/platforms";
import { skillOptionSchema, skillOptionsSchema } from "../../domain/skills";
import { api } from "../api/client";
import { useAuth } from "../auth/AuthProvider";
import { EntityPicker, optionsPicker } from "../components/EntityPicker";
import { FilterSelect } from "../components/inputs";
import type { ServerList } from "../lib/server-list";
import { queryRoots } from "../lib/query-client";
import { reviewListQuery } from "./queries";

/** Laid out as `FilterSelect` is, so that filters on a phone line up in one column. */
function FilterRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[6.5rem_minmax(0,1fr)] items-center gap-2 text-sm sm:flex">
      <span className="whitespace-nowrap text-base-content/80" aria-hidden>
        {label}
      </span>
      {children}
    </div>
  );
}

/** "Skill": every skill by name (`/api/skills/options`), "All Skills" clears it. */
const SkillFilter = optionsPicker({
  path: "/skills/options",
  page: skillOptionsSchema,
  one: skillOptionSchema,
  option: (s) => ({ id: s.skill_id, label: s.skill_name }),
  root: queryRoots.skills,
  labels: { label: msg.reviews.columns.skill, placeholder: "Type a skill name...", all: msg.reviews.allSkills },
}).Filter;

/** "Platform": platforms found by name in the platforms' list (`/api/platforms`, paged as it scrolls), "All Platforms" clears it. */
function PlatformFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (id: string | undefined) => void;
}) {
  const chosen = useQuery({
    queryKey: [...queryRoots.platforms, "detail", value],
    queryFn: ({ signal }) => api(`/platforms/${value}`, platformDetailSchema, { signal }),
    enabled: Boolean(value),
    staleTime: 60_000,
  });
  const label = msg.reviews.columns.platform;
  return (
    <FilterRow label={label}>
      <EntityPicker
        label={label}
        value={value}
        current={value ? chosen.data?.platform_name : undefined}
        onChange={onChange}
        emptyLabel={msg.reviews.allPlatforms}
        placeholder="Type a platform name..."
        queryKey={[...queryRoots.platforms, "review-filter"]}
        search={async (q, after, signal) => {
          const page = await api("/platforms", platformPageSchema, {
            query: { q: q || undefined, sort: "platform_name", order: "asc", limit: 20, cursor: after },
            signal,
          });
          return {
            items: page.items.map((p) => ({
              id: p.platform_id,
              label: p.platform_name ?? msg.fallbacks.unnamedPlatform,
            })),
            next: page.next_cursor,
          };
        }}
      />
    </FilterRow>
  );
}

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
      for (const c of page.items) seen.set(c.proposed_by, c.proposed_by_email ?? msg.reviews.unknownAuthor);
      return seen;
    },
  });
  const others = [...(authors.data ?? new Map<string, string>())].filter(([id]) => id !== me?.id);
  if (value && value !== me?.id && !others.some(([id]) => id === value)) others.push([value, value]);
  return (
    <FilterSelect label={msg.reviews.columns.author} value={value ?? ""} onChange={(v) => onChange(v || undefined)}>
      <option value="">{msg.reviews.allAuthors}</option>
      {me ? <option value={me.id}>{msg.reviews.mine}</option> : null}
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
        label={msg.reviews.statusTitle}
        value={status ?? "pending"}
        onChange={(v) => list.setFilter({ status: v === "pending" ? undefined : v })}
      >
        {promptChangeStatuses.map((s) => (
          <option key={s} value={s}>
            {msg.reviews.statusLabels[s]}
          </option>
        ))}
        <option value="all">{msg.reviews.allStatuses}</option>
      </FilterSelect>
      <PlatformFilter value={platform} onChange={(v) => list.setFilter({ platform: v })} />
      <SkillFilter value={skill} onChange={(v) => list.setFilter({ skill: v })} />
      <AuthorFilter value={author} status={status} onChange={(v) => list.setFilter({ author: v })} />
    </>
  );
}
