/**
 * Every text field states its limit in its message and stops typing there, from the schema the
 * server checks (src/domain/text.ts `maxLengthOf`): the limit is one number, in one place.
 */
import { describe, expect, it } from "vitest";
import { createCustomerSchema } from "../../src/domain/customers";
import { createOperatorSchema } from "../../src/domain/operators";
import { platformRecords } from "../../src/domain/platforms";
import { createPromptSchema } from "../../src/domain/prompts";
import { skillRecords } from "../../src/domain/skills";
import { createTeamSchema } from "../../src/domain/teams";
import { createUserSchema } from "../../src/domain/users";
import { maxLengthOf } from "../../src/domain/text";

const cases = [
  [createCustomerSchema, "customer_name", 200, "Customer name must be at most 200 characters"],
  [createCustomerSchema, "valid_domains", 5000, "Valid domains must be at most 5,000 characters"],
  [createTeamSchema, "team_name", 200, "Team name must be at most 200 characters"],
  [skillRecords.create, "skill_name", 200, "Skill name must be at most 200 characters"],
  [skillRecords.create, "skill_description", 5000, "Skill description must be at most 5,000 characters"],
  [createPromptSchema, "prompt_title", 500, "Prompt title must be at most 500 characters"],
  [createPromptSchema, "prompt_value", 50_000, "Prompt content must be at most 50,000 characters"],
  [platformRecords.create, "platform_name", 200, "Platform name must be at most 200 characters"],
  [platformRecords.create, "platform_description", 5000, "Description must be at most 5,000 characters"],
  [createOperatorSchema, "name", 100, "Name must be at most 100 characters"],
  [createUserSchema, "email", 254, "Email address must be at most 254 characters"],
] as const;

describe("text field limits", () => {
  it.each(cases)("%#: the field's maxLength and message come from its schema", (schema, field, max, message) => {
    const shape = (schema as unknown as { shape: Record<string, Parameters<typeof maxLengthOf>[0]> }).shape;
    expect(maxLengthOf(shape[field])).toBe(max);
    const value = field === "email" ? `${"a".repeat(max)}@x.io` : "x".repeat(max + 1);
    const result = shape[field].safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].message).toBe(message);
  });
});
