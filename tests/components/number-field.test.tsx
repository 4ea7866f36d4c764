/**
 * The form kit's number field: its bounds come from the schema the server checks, an empty box is
 * no value (the schema's own message), and what is saved is a number.
 */
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { EntityForm } from "../../src/web/components/EntityForm";

const schema = z.object({
  context_window: z
    .number({ error: "Enter the context window" })
    .int("A whole number")
    .min(1, "At least 1")
    .max(2_000_000, "At most 2,000,000"),
});

describe("EntityForm's number field", () => {
  it("takes its bounds from the schema and saves a number", async () => {
    const onSubmit = vi.fn(async () => undefined);
    // The form guards unsaved changes with the router's blocker: it renders inside a router.
    const root = createRootRoute({
      component: () => (
        <EntityForm
          schema={schema}
          defaults={{}}
          fields={[{ kind: "number", name: "context_window", label: "Context window", required: true }]}
          onSubmit={onSubmit}
          submitLabel="Save"
          busyLabel="Saving..."
          cancel={() => null}
        />
      ),
    });
    render(<RouterProvider router={createRouter({ routeTree: root, history: createMemoryHistory() })} />);
    const box = (await screen.findByLabelText(/Context window/)) as HTMLInputElement;
    expect([box.type, box.min, box.max, box.step]).toEqual(["number", "1", "2000000", "1"]);

    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByTestId("field-error").textContent).toBe("Enter the context window"));
    await userEvent.type(box, "0");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByTestId("field-error").textContent).toBe("At least 1"));
    expect(onSubmit).not.toHaveBeenCalled();

    await userEvent.clear(box);
    await userEvent.type(box, "4096");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect((onSubmit.mock.calls[0] as unknown[])[0]).toEqual({ context_window: 4096 });
  });
});
