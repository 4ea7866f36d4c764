/**
 * Chart pieces the analytics screen and the dashboard's trends share (recharts, loaded with those
 * screens only): the theme's series colours, axis and tooltip styles, and a small chart of one
 * series with its data table, the chart's text alternative.
 */
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { format } from "date-fns";
import type { ReactNode } from "react";
import { formatNumber } from "../components/format";

/** Series colours: the theme's own, each with 3:1 contrast against both backgrounds. */
export const chartColours = ["var(--color-primary)", "var(--color-info)", "var(--color-warning)", "var(--color-error)"];

/** Axis lines and ticks in the text colour, so both themes read them. */
export const chartAxis = { stroke: "currentColor", tick: { fill: "currentColor", fontSize: 12 } };

/** The tooltip in the theme's surface and text colours. */
export function ChartTooltip() {
  return (
    <Tooltip
      contentStyle={{
        background: "var(--color-base-100)",
        border: "1px solid var(--color-base-300)",
        color: "var(--color-base-content)",
      }}
    />
  );
}

/** A YYYY-MM-DD label as the console writes dates in charts: "Nov 3". */
export const dayLabel = (label: string) =>
  /^\d{4}-\d{2}-\d{2}/.test(label) ? format(new Date(`${label.slice(0, 10)}T00:00:00`), "MMM d") : label;

/** One series over dated rows: `label` YYYY-MM-DD, `value` a count. */
export type SeriesRow = { label: string; value: number };

/**
 * A small chart of one series (a line, or bars for few rows), hidden from assistive technology:
 * `SeriesTable` is its text alternative. `name` names the series in the tooltip; `onPoint`, when
 * given, is called with the index of the row a click lands on (the table's links are the keyboard's
 * way to the same place).
 */
export function SmallSeriesChart({
  rows,
  name,
  kind,
  onPoint,
}: {
  rows: SeriesRow[];
  name: string;
  kind: "line" | "bar";
  onPoint?: (index: number) => void;
}) {
  const data = rows.map((r) => ({ label: dayLabel(r.label), value: r.value }));
  const common = {
    data,
    margin: { top: 8, right: 8, bottom: 0, left: 0 },
    accessibilityLayer: false,
    ...(onPoint
      ? {
          style: { cursor: "pointer" },
          onClick: ({ activeTooltipIndex }: { activeTooltipIndex?: unknown }) => {
            const index = Number(activeTooltipIndex);
            if (Number.isInteger(index) && index >= 0 && index < rows.length) onPoint(index);
          },
        }
      : {}),
  };
  return (
    <ResponsiveContainer width="100%" height="100%">
      {kind === "line" ? (
        <LineChart {...common}>
          <CartesianGrid strokeOpacity={0.2} />
          <XAxis dataKey="label" {...chartAxis} minTickGap={24} />
          <YAxis allowDecimals={false} {...chartAxis} width={48} />
          <ChartTooltip />
          <Line
            type="monotone"
            dataKey="value"
            name={name}
            stroke={chartColours[0]}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      ) : (
        <BarChart {...common}>
          <CartesianGrid strokeOpacity={0.2} />
          <XAxis dataKey="label" interval="preserveStartEnd" {...chartAxis} />
          <YAxis allowDecimals={false} {...chartAxis} width={48} />
          <ChartTooltip />
          <Bar dataKey="value" name={name} fill={chartColours[0]} isAnimationActive={false} />
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}

/**
 * The rows of a series as a table (the chart's text alternative): a date column and a count
 * column; `rowLink`, when given, makes each date a link (the chart's clickable points).
 */
export function SeriesTable({
  rows,
  caption,
  labelHeader,
  valueHeader,
  rowLink,
}: {
  rows: SeriesRow[];
  caption: string;
  labelHeader: string;
  valueHeader: string;
  rowLink?: (row: SeriesRow, label: string) => ReactNode;
}) {
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="table table-sm" aria-label={caption}>
        <thead>
          <tr>
            <th scope="col">{labelHeader}</th>
            <th scope="col" className="text-right">
              {valueHeader}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row" className="font-normal">
                {rowLink ? rowLink(r, dayLabel(r.label)) : dayLabel(r.label)}
              </th>
              <td className="text-right tabular-nums">{formatNumber(r.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
