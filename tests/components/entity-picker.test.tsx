/**
 * The type-ahead picker while the server's answer is on its way: what it already shows is narrowed
 * by the typed text as the server narrows it, so the option a person is about to click is already
 * where the answer puts it, and a click on it chooses it.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { matchesSearch } from "../../src/domain/limits";
import { msg } from "../../src/domain/messages";
import { EntityPicker, type PickerOption } from "../../src/web/components/EntityPicker";

const all: PickerOption[] = ["Acme", "Beta Corp", "E2E Add User 1", "E2E Add User 2", "Zeta"].map((label, i) => ({
  id: `id-${i}`,
  label,
}));

describe("EntityPicker", () => {
  it("narrows the options it shows by the typed text before the answer arrives, and a click on one chooses it", async () => {
    // Each search waits until the test lets it answer.
    const pending: Array<() => void> = [];
    const search = vi.fn(
      (q: string) =>
        new Promise<{ items: PickerOption[]; next: null }>((resolve) =>
          pending.push(() => resolve({ items: all.filter((o) => !q || matchesSearch(o.label, q)), next: null })),
        ),
    );
    const onChange = vi.fn();
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <EntityPicker
          label="Customer"
          value={undefined}
          current={undefined}
          onChange={onChange}
          search={search}
          queryKey={["t"]}
        />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    const box = screen.getByRole("combobox", { name: "Customer" });
    await user.click(box);
    await waitFor(() => expect(pending).toHaveLength(1));
    pending.shift()!();
    const list = screen.getByRole("listbox", { name: "Customer" });
    await waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(all.length));

    await user.type(box, "add user 2");
    // Before the search for the text has answered: only what it matches, in the answer's order.
    const names = () =>
      within(list)
        .getAllByRole("option")
        .map((o) => o.textContent);
    expect(names()).toEqual(["E2E Add User 2"]);
    expect(within(list).queryByText(msg.lists.pickerNone)).toBeNull();
    const option = within(list).getByRole("option", { name: "E2E Add User 2" });
    await waitFor(() => expect(pending.length).toBeGreaterThan(0));
    while (pending.length) pending.shift()!();
    await waitFor(() => expect(search).toHaveBeenLastCalledWith("add user 2", undefined, expect.anything()));
    await waitFor(() => expect(within(list).queryByText(msg.lists.pickerLoading)).toBeNull());
    // The answer changed nothing: the same option, at the same place, and a click chooses it.
    expect(names()).toEqual(["E2E Add User 2"]);
    expect(within(list).getByRole("option", { name: "E2E Add User 2" })).toBe(option);
    await user.click(option);
    expect(onChange).toHaveBeenCalledWith("id-3");
  });

  it("matches as the server does: a prefix below three characters, anywhere from three", () => {
    expect(matchesSearch("Schneider Inc", "sc")).toBe(true);
    expect(matchesSearch("Schneider Inc", "in")).toBe(false);
    expect(matchesSearch("Schneider Inc", "inc")).toBe(true);
    expect(matchesSearch("Schneider Inc", " NEI ")).toBe(true);
  });
});
