import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ColumnsMenu } from "../../src/web/components/views/ColumnsMenu";
import { useViewMutations } from "../../src/web/components/views/queries";
import type { ListViews } from "../../src/web/components/views/useListViews";
import { savedViewListOf } from "../../src/web/components/views/useListViews";
import {
  columnInfo,
  describeDropped,
  knownColumns,
  sameViewState,
  shownColumns,
  toUrlSearch,
  toViewState,
  type ViewContext,
} from "../../src/web/components/views/view-state";
import { ViewNameDialog } from "../../src/web/components/views/ViewsMenu";

const ctx: ViewContext = {
  filterNames: { customer: "customer_id", signed_in: "signed_in" },
  defaults: { sort: "created_at", order: "desc" },
  defaultLimit: 50,
  defaultColumns: ["name", "customer", "status", "created_at"],
};

describe("view state", () => {
  it("stores the filters by their API names and opens them under the screen's", () => {
    const state = toViewState(
      { q: "ann", sort: "name", order: "asc", filters: { customer: "c1", signed_in: undefined } },
      ["name", "status"],
      100,
      ctx,
    );
    expect(state).toEqual({
      q: "ann",
      sort: "name",
      order: "asc",
      filters: { customer_id: "c1" },
      columns: ["name", "status"],
      hidden_columns: ["customer", "created_at"],
      limit: 100,
    });
    expect(toUrlSearch(state, ctx)).toEqual({ q: "ann", sort: "name", order: "asc", customer: "c1", limit: 100 });
  });

  it("opens a flag filter as the router reads it, a boolean", () => {
    expect(toUrlSearch({ filters: { signed_in: "true" } }, ctx)).toEqual({ signed_in: true });
  });

  it("leaves defaults and filters the screen does not have out of the URL", () => {
    expect(toUrlSearch({ sort: "created_at", order: "desc", filters: { team_id: "t1" }, limit: 50 }, ctx)).toEqual({});
  });

  it("compares with defaults filled in, and columns only when the view names them", () => {
    const current = toViewState({ q: "", sort: "created_at", order: "desc", filters: {} }, ["name"], 50, ctx);
    expect(sameViewState(current, { filters: {} }, ctx)).toBe(true);
    expect(sameViewState(current, { filters: {}, columns: ["name", "status"] }, ctx)).toBe(false);
    expect(sameViewState(current, { filters: { customer_id: "c1" } }, ctx)).toBe(false);
    // A column the screen no longer has does not make the view modified.
    expect(sameViewState(current, { filters: {}, columns: ["name", "gone"] }, ctx)).toBe(true);
  });

  it("keeps the known columns in the view's order and names the others", () => {
    expect(knownColumns(["status", "gone", "name"], ctx.defaultColumns)).toEqual({
      kept: ["status", "name"],
      unknown: ["gone"],
    });
  });

  it("shows a column added to the screen after the choice was made, after the column it follows", () => {
    // Chosen when the screen had name, status and created_at; customer came later.
    const choice = { columns: ["status", "name"], hidden_columns: ["created_at"] };
    expect(shownColumns(choice, ctx.defaultColumns)).toEqual(["status", "name", "customer"]);
    // A new first column goes first.
    expect(
      shownColumns({ columns: ["status"], hidden_columns: ["customer", "created_at"] }, ctx.defaultColumns),
    ).toEqual(["name", "status"]);
    // Kept before hidden columns were: only its own show.
    expect(shownColumns({ columns: ["status", "name"] }, ctx.defaultColumns)).toEqual(["status", "name"]);
    // Nothing the screen still has: the spec's columns.
    expect(shownColumns({ columns: ["gone"], hidden_columns: ctx.defaultColumns }, ctx.defaultColumns)).toEqual(
      ctx.defaultColumns,
    );
    // A view whose new column shows is not modified by it.
    const current = toViewState(
      { q: "", sort: "created_at", order: "desc", filters: {} },
      ["status", "name", "customer"],
      50,
      ctx,
    );
    expect(sameViewState(current, { filters: {}, ...choice }, ctx)).toBe(true);
  });

  it("says in the console's words what no longer applies", () => {
    expect(
      describeDropped(
        [
          { part: "filters.customer_id", value: "c1", reason: "not_found" },
          { part: "sort", value: "age", reason: "unknown_sort" },
          { part: "filters.status", value: "odd", reason: "unknown_value" },
        ],
        ["gone"],
      ),
    ).toEqual([
      "This view's filter Customer no longer applies: the customer was deleted",
      "This view's sort no longer applies: the list can no longer be sorted this way",
      "This view's filter Status no longer applies: its value is no longer offered",
      "This view's column gone no longer applies: the list no longer has this column",
    ]);
  });

  it("finds a screen's list from its export path, and reads a column's id and name", () => {
    expect(savedViewListOf("/prompt-changes")).toBe("prompt-changes");
    expect(savedViewListOf("/elsewhere")).toBeNull();
    expect(columnInfo({ id: "status", header: "Status" })).toEqual({ id: "status", label: "Status", fixed: false });
    expect(columnInfo({ id: "actions", meta: { actions: true, label: "Actions" } }).fixed).toBe(true);
  });
});

const columns = [
  { id: "name", label: "Name" },
  { id: "customer", label: "Customer" },
  { id: "status", label: "Status" },
];

/** The columns dialog over a choice kept like the screen keeps it. */
function Columns({ onChange }: { onChange: (v: string[] | null) => void }) {
  const [visible, setVisible] = useState(["name", "customer", "status"]);
  return (
    <ColumnsMenu
      columns={columns}
      visible={visible}
      onChange={(next) => {
        onChange(next);
        setVisible(next ?? columns.map((c) => c.id));
      }}
    />
  );
}

describe("ColumnsMenu", () => {
  it("hides, shows, reorders and resets columns, keeping one visible", async () => {
    const onChange = vi.fn();
    render(<Columns onChange={onChange} />);
    await userEvent.click(screen.getByRole("button", { name: "Columns" }));
    const dialog = within(screen.getByTestId("modal"));

    await userEvent.click(dialog.getByRole("checkbox", { name: "Customer" }));
    expect(onChange).toHaveBeenLastCalledWith(["name", "status"]);
    // A hidden column has no place to move to until it is shown again.
    expect((dialog.getByRole("button", { name: "Move Customer up" }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(dialog.getByRole("button", { name: "Move Name down" }));
    expect(onChange).toHaveBeenLastCalledWith(["status", "name"]);

    await userEvent.click(dialog.getByRole("checkbox", { name: "Status" }));
    expect(onChange).toHaveBeenLastCalledWith(["name"]);
    expect((dialog.getByRole("checkbox", { name: "Name" }) as HTMLInputElement).disabled).toBe(true);
    expect(dialog.getByText("At least one column stays visible")).toBeTruthy();

    await userEvent.click(dialog.getByRole("button", { name: "Reset columns" }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(dialog.getAllByRole("checkbox").every((c) => (c as HTMLInputElement).checked)).toBe(true);
  });
});

/** The name dialog with the real mutations, over a stubbed fetch. */
function NameDialogHarness({ onClose }: { onClose: () => void }) {
  const mutations = useViewMutations("users");
  const views = {
    mutations,
    current: { filters: {} },
    showSaved: vi.fn(),
  } as unknown as ListViews;
  return <ViewNameDialog open canShare views={views} onClose={onClose} />;
}

describe("ViewNameDialog", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("requires a name, then shows the server's 422 message for it", async () => {
    const fetch = vi.fn(async () =>
      Response.json(
        {
          error: {
            code: "validation",
            message: "Invalid input",
            fields: { name: "You already have a view named Mine" },
          },
        },
        { status: 422 },
      ),
    );
    vi.stubGlobal("fetch", fetch);
    const onClose = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <NameDialogHarness onClose={onClose} />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Save view" }));
    expect(screen.getByTestId("field-error").textContent).toBe("Enter a name");
    expect(fetch).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText(/Name/), "Mine");
    await userEvent.click(screen.getByRole("checkbox", { name: /Share with all operators/ }));
    await userEvent.click(screen.getByRole("button", { name: "Save view" }));
    await waitFor(() =>
      expect(screen.getByTestId("field-error").textContent).toBe("You already have a view named Mine"),
    );
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/views");
    expect(JSON.parse(init.body as string)).toEqual({
      name: "Mine",
      shared: true,
      state: { filters: {} },
      list: "users",
    });
    expect(screen.getByLabelText(/Name/).getAttribute("aria-invalid")).toBe("true");
    expect(onClose).not.toHaveBeenCalled();
  });
});
