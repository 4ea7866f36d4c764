import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/web/api/client";
import { applyServerError, FormActions, FormError } from "../../src/web/components/forms";
import { Field } from "../../src/web/components/inputs";
import { ConfirmDialog, Modal } from "../../src/web/components/overlays";

describe("ConfirmDialog", () => {
  const props = { title: "Delete Team", message: "Are you sure?", confirmLabel: "Delete Team" };

  it("shows nothing while closed", () => {
    render(<ConfirmDialog open={false} {...props} onConfirm={() => undefined} onCancel={() => undefined} />);
    expect(screen.queryByText("Are you sure?")).toBeNull();
  });

  it("asks, focuses Cancel (the safe answer), and reports the choice", async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<ConfirmDialog open {...props} onConfirm={onConfirm} onCancel={onCancel} />);
    expect(screen.getByText("Are you sure?")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Cancel" }));
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalledOnce();
    await userEvent.click(screen.getAllByRole("button", { name: "Delete Team" }).at(-1)!);
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it("disables both answers while the action runs and shows its error", () => {
    render(
      <ConfirmDialog
        open
        {...props}
        busy
        error="Team not found"
        onConfirm={() => undefined}
        onCancel={() => undefined}
      />,
    );
    expect((screen.getByRole("button", { name: "Cancel" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getAllByRole("button", { name: "Delete Team" }).at(-1) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole("alert").textContent).toBe("Team not found");
  });
});

describe("Modal", () => {
  it("focuses its search box (its first field) when it opens", () => {
    render(
      <Modal open title="Assign Skill to Team" onClose={() => undefined}>
        <input type="search" aria-label="Search skills..." />
        <button type="button">Assign</button>
      </Modal>,
    );
    expect(document.activeElement).toBe(screen.getByRole("searchbox", { name: "Search skills..." }));
  });
});

describe("form errors", () => {
  it("shows a field's message under it, marks the control invalid and describes it with the message", () => {
    render(
      <Field label="Customer Name" htmlFor="customer_name" error="Customer name is required" hint="Shown when valid">
        <input id="customer_name" />
      </Field>,
    );
    const input = screen.getByLabelText("Customer Name");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    const message = screen.getByRole("alert");
    expect(message.textContent).toBe("Customer name is required");
    expect(input.getAttribute("aria-describedby")).toBe(message.id);
    expect(screen.queryByText("Shown when valid")).toBeNull();
  });

  it("shows the hint, described, while the field is valid", () => {
    render(
      <Field label="Valid Domains" htmlFor="valid_domains" hint="One per line">
        <textarea id="valid_domains" />
      </Field>,
    );
    const box = screen.getByLabelText("Valid Domains");
    expect(box.getAttribute("aria-invalid")).toBeNull();
    expect(document.getElementById(box.getAttribute("aria-describedby")!)!.textContent).toBe("One per line");
  });

  it("puts a server's field messages on their fields and keeps the red box for other errors only", () => {
    const setError = vi.fn();
    const duplicate = new ApiError(409, "conflict", "A user with this email address already exists", {
      email: "A user with this email address already exists",
    });
    expect(applyServerError(duplicate, setError)).toBeNull();
    expect(setError).toHaveBeenCalledWith("email", {
      type: "server",
      message: "A user with this email address already exists",
    });
    expect(applyServerError(new ApiError(500, "internal", "Database unavailable"), vi.fn())).toBe(
      "Database unavailable",
    );
    render(<FormError message="Database unavailable" />);
    expect(screen.getByRole("alert").textContent).toBe("Database unavailable");
  });

  it("shows no red box without a message", () => {
    const { container } = render(<FormError message={null} />);
    expect(container.innerHTML).toBe("");
  });
});

describe("FormActions", () => {
  it("says under the submit button what the save will do, read with the button", () => {
    render(
      <form>
        <FormActions
          cancel={<button type="button">Cancel</button>}
          submitLabel="Update Prompt"
          busyLabel="Updating..."
          busy={false}
          hint="Changes wait for review"
        />
      </form>,
    );
    const submit = screen.getByRole("button", { name: "Update Prompt" });
    expect(submit.getAttribute("aria-describedby")).toBe(screen.getByText("Changes wait for review").id);
  });

  it("describes nothing without a hint", () => {
    render(<FormActions cancel={null} submitLabel="Save" busyLabel="Saving..." busy={false} />);
    expect(screen.getByRole("button", { name: "Save" }).getAttribute("aria-describedby")).toBeNull();
  });
});
