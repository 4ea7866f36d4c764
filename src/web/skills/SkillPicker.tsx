import { useQuery } from "@tanstack/react-query";
import { skillOptionSchema, skillOptionsSchema } from "../../domain/skills";
import { api } from "../api/client";
import { EntityPicker } from "../components/EntityPicker";
import { skillKeys } from "./queries";

/**
 * A skill picker over `/api/skills/options` (every skill by name, paged as it scrolls), for the
 * prompt forms (SPEC.md §2 "/prompts/add", "/prompts/{promptId}/edit": `activeOnly`) and filters
 * ("All Skills" with `emptyLabel`).
 */
export function SkillPicker({ value, onChange, activeOnly = false, emptyLabel, id, invalid, disabled, label = "Skill", field, ...aria }: {
  value: string | undefined;
  onChange: (skillId: string | undefined) => void;
  activeOnly?: boolean;
  emptyLabel?: string;
  id?: string;
  invalid?: boolean;
  disabled?: boolean;
  label?: string;
  field?: boolean;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}) {
  const chosen = useQuery({
    queryKey: [...skillKeys.all, "option", value],
    queryFn: ({ signal }) => api(`/skills/options/${value}`, skillOptionSchema, { signal }),
    enabled: Boolean(value),
    staleTime: 60_000,
  });
  return (
    <EntityPicker
      id={id}
      label={label}
      value={value}
      current={value ? chosen.data?.skill_name : undefined}
      onChange={onChange}
      emptyLabel={emptyLabel}
      invalid={invalid || aria["aria-invalid"]}
      describedBy={aria["aria-describedby"]}
      field={field}
      disabled={disabled}
      placeholder="Type a skill name..."
      queryKey={[...skillKeys.all, "options", activeOnly]}
      search={async (q, after, signal) => {
        const page = await api("/skills/options", skillOptionsSchema, { query: { q: q || undefined, active: activeOnly ? "true" : undefined, limit: 20, after }, signal });
        return { items: page.items.map((s) => ({ id: s.skill_id, label: s.skill_name })), next: page.next };
      }}
    />
  );
}
