import { platformStatuses } from "../../domain/enums";
import type { CreatePlatformInput } from "../../domain/platforms";
import type { FieldSpec } from "../components/EntityForm";

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
