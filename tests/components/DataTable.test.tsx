import { fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { columnsFor, DataTable, type SortState } from "../../src/web/components/DataTable";

type Row = { id: string; name: string; count: number };
const col = columnsFor<Row>();
const columns = [
  col.accessor("name", {
    id: "name",
    header: "Name",
    meta: { grow: true },
    cell: (c) => <a href={`/rows/${c.row.original.id}`}>{c.getValue()}</a>,
  }),
  col.accessor("count", { id: "count", header: "Count", meta: { align: "right" }, cell: (c) => c.getValue() }),
];
const rows: Row[] = [
  { id: "a", name: "Alpha", count: 3 },
  { id: "b", name: "Beta", count: 12 },
  { id: "c", name: "Gamma", count: 7 },
];

function table(props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) {
  return render(<DataTable<Row> label="Things" columns={columns} rows={rows} rowKey={(r) => r.id} {...props} />);
}
const bodyRows = () =>
  within(screen.getByRole("table", { name: "Things" }))
    .getAllByRole("row")
    .slice(1);

describe("DataTable", () => {
  it("renders a header and one row per item, numbers right-aligned", () => {
    table();
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Name", "Count"]);
    expect(bodyRows().map((r) => r.textContent)).toEqual(["Alpha3", "Beta12", "Gamma7"]);
    expect(within(bodyRows()[1]).getAllByRole("cell")[1].className).toMatch(/text-right/);
    expect(within(bodyRows()[1]).getAllByRole("cell")[1].className).toMatch(/tabular-nums/);
  });

  it("sorts through the server: a header toggles ascending and descending, and says which", async () => {
    const onSort = vi.fn<(s: SortState) => void>();
    const { rerender } = table({ sortable: ["name", "count"], sort: { sort: "name", order: "asc" }, onSort });
    const name = screen.getByRole("columnheader", { name: "Name" });
    expect(name.getAttribute("aria-sort")).toBe("ascending");
    expect(screen.getByRole("columnheader", { name: "Count" }).getAttribute("aria-sort")).toBeNull();
    await userEvent.click(within(name).getByRole("button"));
    expect(onSort).toHaveBeenLastCalledWith({ sort: "name", order: "desc" });
    rerender(
      <DataTable<Row>
        label="Things"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        sortable={["name", "count"]}
        sort={{ sort: "name", order: "desc" }}
        onSort={onSort}
      />,
    );
    expect(screen.getByRole("columnheader", { name: "Name" }).getAttribute("aria-sort")).toBe("descending");
    await userEvent.click(within(screen.getByRole("columnheader", { name: "Count" })).getByRole("button"));
    expect(onSort).toHaveBeenLastCalledWith({ sort: "count", order: "asc" });
  });

  it("leaves headers of columns the server cannot sort as plain text", () => {
    table({ sortable: ["count"], onSort: () => undefined });
    expect(within(screen.getByRole("columnheader", { name: "Name" })).queryByRole("button")).toBeNull();
  });

  it("makes each clickable row one Tab stop, moves with arrows, Home and End, and opens with Enter", async () => {
    const onRowClick = vi.fn<(r: Row) => void>();
    table({ onRowClick });
    const [first, second, third] = bodyRows();
    expect(first.tabIndex).toBe(0);
    // The link inside a row leaves the Tab order: the row is the stop.
    expect(within(first).getByRole("link").getAttribute("tabindex")).toBe("-1");
    first.focus();
    await userEvent.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(second);
    await userEvent.keyboard("{End}");
    expect(document.activeElement).toBe(third);
    await userEvent.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(third);
    await userEvent.keyboard("{Home}");
    expect(document.activeElement).toBe(first);
    await userEvent.tab();
    expect(document.activeElement).toBe(second);
    await userEvent.keyboard("{Enter}");
    expect(onRowClick).toHaveBeenCalledWith(rows[1]);
  });

  it("opens a row on click, but not when the click is on a link or button inside it", () => {
    const onRowClick = vi.fn();
    table({ onRowClick });
    fireEvent.click(within(bodyRows()[2]).getAllByRole("cell")[1]);
    expect(onRowClick).toHaveBeenCalledWith(rows[2]);
    onRowClick.mockClear();
    fireEvent.click(within(bodyRows()[0]).getByRole("link"));
    expect(onRowClick).not.toHaveBeenCalled();
  });

  it("rows are not focusable when they do not open anything", () => {
    table();
    expect(bodyRows()[0].getAttribute("tabindex")).toBeNull();
    expect(within(bodyRows()[0]).getByRole("link").getAttribute("tabindex")).toBeNull();
  });

  it("shows the empty state in place of rows", () => {
    table({ rows: [], empty: <p>No things found</p> });
    expect(bodyRows()).toHaveLength(1);
    expect(screen.getByText("No things found")).toBeTruthy();
  });

  it("shows five skeleton rows and marks the table busy while the first page loads", () => {
    table({ rows: undefined, loading: true });
    expect(screen.getAllByTestId("skeleton-row")).toHaveLength(5);
    expect(screen.getByRole("table", { name: "Things" }).getAttribute("aria-busy")).toBe("true");
  });

  it("keeps the rows it has, dimmed, while the next page loads", () => {
    table({ loading: true });
    expect(screen.queryAllByTestId("skeleton-row")).toHaveLength(0);
    expect(bodyRows()[0].className).toMatch(/opacity-60/);
  });

  it("labels each value with its column for the phone layout", () => {
    table();
    const [name, count] = within(bodyRows()[0]).getAllByRole("cell");
    expect(name.getAttribute("data-label")).toBeNull();
    expect(count.getAttribute("data-label")).toBe("Count");
  });
});
