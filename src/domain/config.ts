import { z } from "zod";
import { counts, id, listPage, noSummary, stored, timestamp } from "./common";
import { customerStatuses } from "./enums";
import { configMsg } from "./messages/config";
import { describesRows } from "./table-rows";
import { asText } from "./text";

/**
 * Per-customer configuration (SPEC.md §2 "/config", §9 sample values): the spec's layout (industry,
 * company size, billing plan; features each enabled or not; limits; security), kept in the
 * console's own `customer_settings` table. A customer without a row has `configDefaults`.
 */
export const industries = [
  "technology",
  "healthcare",
  "finance",
  "retail",
  "manufacturing",
  "education",
  "government",
  "other",
] as const;
export const companySizes = ["1-50", "51-200", "201-1000", "1001-5000", "5000+"] as const;
export const billingPlans = ["trial", "starter", "professional", "enterprise"] as const;
/** The features a customer can have switched on, in the screen's order. */
export const configFeatures = ["ai_skills", "prompt_library", "analytics", "api_access", "single_sign_on"] as const;
export type ConfigFeature = (typeof configFeatures)[number];

/** Labels of the options and fields, as the screen and the change history show them. */
export const configLabels = {
  industry: "Industry",
  company_size: "Company Size",
  billing_plan: "Billing Plan",
  max_users: "Max Users",
  max_teams: "Max Teams",
  storage_gb: "Storage (GB)",
  allow_guest_users: "Allow Guest Users",
  require_mfa: "Require MFA",
  session_timeout_minutes: "Session Timeout (minutes)",
  features: {
    ai_skills: "AI Skills",
    prompt_library: "Prompt Library",
    analytics: "Analytics",
    api_access: "API Access",
    single_sign_on: "Single Sign-On",
  } satisfies Record<ConfigFeature, string>,
  companySizes: {
    "1-50": "1–50 employees",
    "51-200": "51–200 employees",
    "201-1000": "201–1,000 employees",
    "1001-5000": "1,001–5,000 employees",
    "5000+": "More than 5,000 employees",
  } satisfies Record<(typeof companySizes)[number], string>,
} as const;

/** Bounds of the limits: positive whole numbers that fit the database's integer. */
export const configBounds = { maxLimit: 1_000_000_000, minTimeout: 5, maxTimeout: 1440 } as const;

const positiveWhole = (message: string) =>
  z.number({ error: message }).int(message).min(1, message).max(configBounds.maxLimit, message);

/** The editable values of a customer's configuration. */
export const configValuesSchema = z.strictObject({
  industry: z.enum(industries, { error: configMsg.industryInvalid }),
  company_size: z.enum(companySizes, { error: configMsg.companySizeInvalid }),
  billing_plan: z.enum(billingPlans, { error: configMsg.billingPlanInvalid }),
  features: z.strictObject(
    Object.fromEntries(configFeatures.map((f) => [f, z.boolean({ error: configMsg.featureInvalid })])) as Record<
      ConfigFeature,
      z.ZodBoolean
    >,
    { error: configMsg.featuresInvalid },
  ),
  max_users: positiveWhole(configMsg.maxUsersInvalid),
  max_teams: positiveWhole(configMsg.maxTeamsInvalid),
  storage_gb: positiveWhole(configMsg.storageInvalid),
  allow_guest_users: z.boolean({ error: configMsg.booleanInvalid }),
  require_mfa: z.boolean({ error: configMsg.booleanInvalid }),
  session_timeout_minutes: z
    .number({ error: configMsg.timeoutInvalid })
    .int(configMsg.timeoutInvalid)
    .min(configBounds.minTimeout, configMsg.timeoutInvalid)
    .max(configBounds.maxTimeout, configMsg.timeoutInvalid),
});
export type ConfigValues = z.infer<typeof configValuesSchema>;

/**
 * Save Changes: every value, and the `version` the page loaded (0 for a customer still on the
 * defaults). A save whose version is not the current one is refused (409) with the fresh values.
 */
export const saveConfigSchema = configValuesSchema.extend({
  version: z
    .number({ error: configMsg.versionInvalid })
    .int(configMsg.versionInvalid)
    .min(0, configMsg.versionInvalid)
    .max(2_000_000_000, configMsg.versionInvalid),
});
export type SaveConfigInput = z.infer<typeof saveConfigSchema>;

/** Values of a customer that has never been configured. */
export const configDefaults: ConfigValues = {
  industry: "other",
  company_size: "1-50",
  billing_plan: "starter",
  features: { ai_skills: true, prompt_library: true, analytics: false, api_access: false, single_sign_on: false },
  max_users: 50,
  max_teams: 10,
  storage_gb: 100,
  allow_guest_users: false,
  require_mfa: false,
  session_timeout_minutes: 60,
};

/** The two configured demo customers of SPEC.md §9's sample values. */
export const configSamples: [ConfigValues, ConfigValues] = [
  {
    industry: "technology",
    company_size: "1001-5000",
    billing_plan: "enterprise",
    features: { ai_skills: true, prompt_library: true, analytics: true, api_access: true, single_sign_on: true },
    max_users: 500,
    max_teams: 50,
    storage_gb: 1000,
    allow_guest_users: false,
    require_mfa: true,
    session_timeout_minutes: 480,
  },
  {
    industry: "healthcare",
    company_size: "201-1000",
    billing_plan: "professional",
    features: { ai_skills: true, prompt_library: true, analytics: true, api_access: false, single_sign_on: false },
    max_users: 100,
    max_teams: 20,
    storage_gb: 250,
    allow_guest_users: true,
    require_mfa: true,
    session_timeout_minutes: 240,
  },
];

/** GET /api/config/{customerId}: the customer's configuration, who saved it last, and its usage. */
export const customerConfigSchema = z.object({
  customer_id: id,
  customer_name: z.string(),
  customer_status: stored(customerStatuses),
  values: configValuesSchema,
  /** 0 while the customer is on the defaults; each save adds one. */
  version: z.number().int(),
  updated_at: timestamp.nullable(),
  updated_by: z.string().nullable(),
  /** Current usage next to the limits: users and teams of the customer. */
  usage: counts("users", "teams"),
});
export type CustomerConfig = z.infer<typeof customerConfigSchema>;

/** The 409 answer of a stale save: the error, and the configuration as it is now. */
export const configConflictSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  current: customerConfigSchema,
});

/** One saved field change of a customer's configuration (Recent changes). */
export const configChangeSchema = z.object({
  change_id: id,
  customer_id: id,
  /** `max_users`, `features.analytics`... */
  field: z.string(),
  old_value: z.string().nullable(),
  new_value: z.string().nullable(),
  changed_by: z.string().nullable(),
  changed_at: timestamp,
  version: z.number().int(),
});
export type ConfigChange = z.infer<typeof configChangeSchema>;
/** A row of `customer_settings_changes` is a change as Recent changes shows it. */
export const configChangeRows = describesRows("customer_settings_changes", configChangeSchema);
export const configChangePageSchema = listPage(configChangeSchema, noSummary);

/** The label of a change's field: "Max Users", "Feature: Analytics". */
export function configFieldLabel(field: string): string {
  if (field.startsWith("features.")) {
    const feature = field.slice("features.".length) as ConfigFeature;
    return configMsg.featureLabel(configLabels.features[feature] ?? feature);
  }
  const labels: Record<string, unknown> = configLabels;
  const label = labels[field];
  return typeof label === "string" ? label : field;
}

/** Flattens values to `field → text` (features as `features.<name>`), as the history stores them. */
export function flattenConfig(values: ConfigValues): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === "features")
      for (const [f, on] of Object.entries(value as Record<string, boolean>)) flat[`features.${f}`] = String(on);
    else flat[key] = asText(value);
  }
  return flat;
}

/** Limits the customer already exceeds: a saved limit below the current usage. */
export function limitWarnings(
  values: Pick<ConfigValues, "max_users" | "max_teams">,
  usage: { users: number; teams: number },
): { max_users?: string; max_teams?: string } {
  return {
    ...(values.max_users < usage.users ? { max_users: configMsg.belowUsage(usage.users, "users") } : {}),
    ...(values.max_teams < usage.teams ? { max_teams: configMsg.belowUsage(usage.teams, "teams") } : {}),
  };
}
