/**
 * The form kit's typed fields, each read as the schema the server checks reads it:
 * - number: its bounds come from the schema, an empty box is no value (the schema's own message),
 *   and what is saved is a number;
 * - date: a calendar date as `YYYY-MM-DD`, an empty box saved as null, the schema's message under
 *   the field;
 * - a new record's values and an edited record's, derived from the fields (`newValues`, `recordValues`).
 */
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { DefaultValues, FieldValues } from "react-hook-form";
import { EntityForm, type FieldSpec } from "../../src/web/components/EntityForm";
import { newValues, recordValues } from "../../src/web/components/form-values";

/**
 * `EntityForm` with `fields` over `schema`, inside a router (its unsaved-changes guard uses the
 * router's blocker); returns the submit spy.
 */
function renderForm<T extends FieldValues, O>(
  schema: z.ZodType<O, T> & { shape: Record<string, z.ZodType> },
  defaults: DefaultValues<T>,
  fields: FieldSpec<T>[],
) {
  const onSubmit = vi.fn(async () => undefined);
  const root = createRootRoute({
    component: () => (
      <EntityForm
        schema={schema}
        defaults={defaults}
        fields={fields}
        onSubmit={onSubmit}
        submitLabel="Save"
        busyLabel="Saving..."
        cancel={null}
      />
    ),
  });
  render(<RouterProvider router={createRouter({ routeTree: root, history: createMemoryHistory() })} />);
  return onSubmit;
}

/** Saves the form and waits for `message` under a field. */
async function saveRefused(message: string) {
  await userEvent.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(screen.getByTestId("field-error").textContent).toBe(message));
}

/** Types `text` into the emptied `box`, saves, and returns the values the form was saved with. */
async function savedWith(box: HTMLInputElement, text: string, onSubmit: ReturnType<typeof renderForm>) {
  await userEvent.clear(box);
  await userEvent.type(box, text);
  await userEvent.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
  return (onSubmit.mock.calls[0] as unknown[])[0];
}

describe("EntityForm's number field", () => {
  it("takes its bounds from the schema and saves a number", async () => {
    const schema = z.object({
      context_window: z
        .number({ error: "Enter the context window" })
        .int("A whole number")
        .min(1, "At least 1")
        .max(2_000_000, "At most 2,000,000"),
    });
    const onSubmit = renderForm(schema, {}, [
      { kind: "number", name: "context_window", label: "Context window", required: true },
    ]);
    const box = (await screen.findByLabelText(/Context window/)) as HTMLInputElement;
    expect([box.type, box.min, box.max, box.step]).toEqual(["number", "1", "2000000", "1"]);

    await saveRefused("Enter the context window");
    await userEvent.type(box, "0");
    await saveRefused("At least 1");
    expect(onSubmit).not.toHaveBeenCalled();

    expect(await savedWith(box, "4096", onSubmit)).toEqual({ context_window: 4096 });
  });
});

describe("EntityForm's date field", () => {
  it("saves a date as YYYY-MM-DD, an empty box as null, and shows the schema's message", async () => {
    const schema = z.object({
      released_on: z.iso.date("Enter a date").nullable(),
      retired_on: z.iso.date("Enter a date").refine((d) => d >= "2026-01-01", "From 2026 on"),
    });
    const onSubmit = renderForm(schema, { released_on: null, retired_on: "" }, [
      { kind: "date", name: "released_on", label: "Released" },
      { kind: "date", name: "retired_on", label: "Retired", required: true },
    ]);
    const retired = (await screen.findByLabelText(/Retired/)) as HTMLInputElement;
    expect(retired.type).toBe("date");

    await saveRefused("Enter a date");
    await userEvent.type(retired, "2025-06-30");
    await saveRefused("From 2026 on");
    expect(onSubmit).not.toHaveBeenCalled();

    expect(await savedWith(retired, "2026-11-29", onSubmit)).toEqual({ released_on: null, retired_on: "2026-11-29" });
  });
});

describe("A form's values derived from its fields", () => {
  const fields: FieldSpec<Record<string, unknown>>[] = [
    { kind: "text", name: "model_name", label: "Name", required: true },
    { kind: "row", fields: [{ kind: "select", name: "status", label: "Status", options: ["active", "archived"] }] },
    { kind: "number", name: "context_window", label: "Context window" },
    { kind: "textarea", name: "notes", label: "Notes" },
    { kind: "checkbox", name: "is_default", label: "Default" },
  ];

  it("starts a new record empty, a select on its first option, and saves what was typed", async () => {
    const schema = z.object({
      model_name: z.string().min(1),
      status: z.enum(["active", "archived"]),
      context_window: z.number().optional(),
      notes: z.string(),
      is_default: z.boolean(),
    });
    const onSubmit = renderForm(schema, newValues(fields), fields);
    const box = (await screen.findByLabelText(/Name/)) as HTMLInputElement;
    expect(await savedWith(box, "Orca", onSubmit)).toEqual({
      model_name: "Orca",
      status: "active",
      context_window: undefined,
      notes: "",
      is_default: false,
    });
  });

  it("edits a record's columns as they are: null text empty, a status outside the options none", () => {
    const record = { model_id: "m1", model_name: "Orca", status: "retired", context_window: 8, notes: null };
    expect(recordValues(fields, { ...record, is_default: true })).toEqual({
      model_name: "Orca",
      status: undefined,
      context_window: 8,
      notes: "",
      is_default: true,
    });
  });
});
