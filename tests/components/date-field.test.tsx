/**
 * The form kit's date field: a calendar date as the schema the server checks reads it
 * (`YYYY-MM-DD`), an empty box saved as null, and the schema's message under the field.
 */
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { EntityForm } from "../../src/web/components/EntityForm";

const schema = z.object({
  released_on: z.iso.date("Enter a date").nullable(),
  retired_on: z.iso.date("Enter a date").refine((d) => d >= "2026-01-01", "From 2026 on"),
});

/** The form with the two date fields, inside a router (its unsaved-changes guard needs one). */
function renderForm(onSubmit: (values: unknown) => Promise<void>) {
  const root = createRootRoute({
    component: () => (
      <EntityForm
        schema={schema}
        defaults={{ released_on: null, retired_on: "" }}
        fields={[
          { kind: "date", name: "released_on", label: "Released" },
          { kind: "date", name: "retired_on", label: "Retired", required: true },
        ]}
        onSubmit={onSubmit}
        submitLabel="Save"
        busyLabel="Saving..."
        cancel={() => null}
      />
    ),
  });
  render(<RouterProvider router={createRouter({ routeTree: root, history: createMemoryHistory() })} />);
}

describe("EntityForm's date field", () => {
  it("saves a date as YYYY-MM-DD, an empty box as null, and shows the schema's message", async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderForm(onSubmit);
    const retired = (await screen.findByLabelText(/Retired/)) as HTMLInputElement;
    expect(retired.type).toBe("date");

    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByTestId("field-error").textContent).toBe("Enter a date"));
    await userEvent.type(retired, "2025-06-30");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByTestId("field-error").textContent).toBe("From 2026 on"));
    expect(onSubmit).not.toHaveBeenCalled();

    await userEvent.clear(retired);
    await userEvent.type(retired, "2026-11-29");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect((onSubmit.mock.calls[0] as unknown[])[0]).toEqual({ released_on: null, retired_on: "2026-11-29" });
  });
});
