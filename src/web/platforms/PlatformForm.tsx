import { platformStatuses } from "../../domain/enums";
import type { CreatePlatformInput } from "../../domain/platforms";
import type { FieldSpec } from "../components/EntityForm";
import { msg } from "../../domain/messages";
import type { RecordKind } from "../components/RecordPage";

/**
 * The platform form (docs/decisions.md: the spec links /platforms/add without showing it): Name
 * (required, trimmed), Description (trimmed, empty saved null), Status (Active, Inactive, Draft;
 * default Active). Rendered by `EntityForm` with `createPlatformSchema`.
 */
export const platformFields: FieldSpec<CreatePlatformInput>[] = [
  { kind: "text", name: "platform_name", label: "Platform Name", required: true },
  { kind: "textarea", name: "platform_description", label: "Description" },
  { kind: "select", name: "status", label: "Status", options: platformStatuses },
];

export const platformDefaults: CreatePlatformInput = { platform_name: "", platform_description: "", status: "active" };

/** A platform as its detail and edit screens load it (docs/decisions.md). */
export const platformRecord: RecordKind = {
  section: msg.nav.platforms,
  errorTitle: msg.platforms.loadOneError,
  notFound: { title: msg.platforms.notFound, message: msg.platforms.notFoundText },
  list: { to: "/platforms", label: msg.platforms.backToList },
};
