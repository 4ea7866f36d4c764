import { useParams } from "@tanstack/react-router";
import { known, platformStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { z } from "zod";
import { platformRecords, type Platform } from "../../domain/platforms";
import type { FieldSpec } from "../components/EntityForm";
import { addScreen, editScreen, formOf, sendValues, sendWithVersion, type Screen } from "../components/FormScreen";
import { recordKind } from "../components/RecordPage";
import { platformQuery, useCreatePlatform, useUpdatePlatform } from "./queries";

/**
 * The platform form (docs/decisions.md: the spec links /platforms/add without showing it): Name
 * (required, trimmed), Description (trimmed, empty saved null), Status (Active, Inactive, Draft;
 * default Active), Changes need review, Provided variables (comma-separated names; empty declares
 * none; docs/prompt-review.md). Rendered by `EntityForm` with `platformRecords.create`.
 */
/** Names as the Provided variables field holds them: separated by commas, spaces or lines, `{{braces}}` allowed. */
const variableNames = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((n) => n.replace(/^\{\{|\}\}$/g, "").trim())
    .filter(Boolean);

/**
 * The form's schema: the API's, with Provided variables as text turned into the list the API takes
 * (checked by the API's own rules, the first problem shown on the field; empty: none declared).
 */
const platformFormSchema = platformRecords.create.extend({
  provided_variables: z
    .string()
    .max(10_000)
    .transform((text, ctx) => {
      const parsed = platformRecords.create.shape.provided_variables.safeParse(variableNames(text));
      if (parsed.success) return parsed.data;
      ctx.addIssue({
        code: "custom",
        message: parsed.error.issues[0]?.message ?? msg.platforms.providedVariablesInvalid,
      });
      return z.NEVER;
    }),
});
type PlatformFormInput = z.input<typeof platformFormSchema>;

export const platformFields: FieldSpec<PlatformFormInput>[] = [
  { kind: "text", name: "platform_name", label: "Platform Name", required: true },
  { kind: "textarea", name: "platform_description", label: "Description" },
  { kind: "select", name: "status", label: "Status", options: platformStatuses },
  { kind: "checkbox", name: "needs_review", label: msg.platforms.needsReview, hint: msg.platforms.needsReviewHint },
  {
    kind: "textarea",
    name: "provided_variables",
    label: msg.platforms.providedVariables,
    hint: msg.platforms.providedVariablesHint,
    placeholder: "customer_name, locale",
    rows: 2,
    mono: true,
  },
];

/** A platform as its detail and edit screens load it (docs/decisions.md). */
export const platformRecord = recordKind(msg.nav.platforms, msg.platforms, { to: "/platforms" });

const form = formOf({ kind: platformRecord, texts: msg.platforms, schema: platformFormSchema, fields: platformFields });

/** /platforms/add (SPEC.md §2 links it; docs/decisions.md): the platform form; on success opens the new platform. */
export const AddPage: Screen = addScreen({
  ...form,
  useCreate: useCreatePlatform,
  send: sendValues,
  created: (p) => ({ to: { to: "/platforms/$platformId", params: { platformId: p.platform_id } } }),
});

/** /platforms/{platform_id}/edit (docs/decisions.md): the platform form prefilled; on success back to the platform. */
export const EditPage: Screen = editScreen({
  ...form,
  useId: () => useParams({ from: "/platforms/$platformId/edit" }).platformId,
  query: platformQuery,
  values: (platform: Platform) => ({
    platform_name: platform.platform_name,
    platform_description: platform.platform_description ?? "",
    status: known(platformStatuses, platform.status),
    needs_review: platform.needs_review,
    provided_variables: platform.provided_variables?.join(", ") ?? "",
  }),
  name: (p) => p.platform_name,
  useUpdate: useUpdatePlatform,
  send: sendWithVersion,
  back: (platformId) => ({ to: "/platforms/$platformId", params: { platformId }, label: msg.platforms.backToRecord }),
});
