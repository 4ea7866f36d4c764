import { useState } from "react";
import { downloadCsv } from "../lib/csv";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  XAxis,
  YAxis,
} from "recharts";
import {
  analyticsFigureSchema,
  analyticsInfo,
  signInRanges,
  type AnalyticsFigure,
  type AnalyticsFigureData,
} from "../../domain/analytics";
import { analyticsMsg } from "../../domain/messages/analytics";
import { fallbacksMsg } from "../../domain/messages/kit";
import { api, errorMessage } from "../api/client";
import { statusTone, type Tone } from "../components/badges";
import { formatDateTime, formatFullTime, formatNumber, titleCase } from "../components/format";
import { ErrorState, PageHeader } from "../components/ui";
import { queryRoots } from "../lib/query-client";
import { chartAxis, chartColours, ChartTooltip, dayLabel } from "./charts";

const colours = chartColours;
/** The colour of each badge tone, so a status reads in the same colour in a chart as in a list. */
const toneColour: Record<Tone, string> = {
  success: "var(--color-success)",
  error: "var(--color-error)",
  warning: "var(--color-warning)",
  neutral: "var(--color-neutral)",
  secondary: "var(--color-secondary)",
  info: "var(--color-info)",
};

/** A row's label as the console writes it elsewhere: "Active", "Agent", "Nov 3", or the name itself. */
function labelText(figure: AnalyticsFigure, label: string): string {
  const kind = analyticsInfo[figure].labels;
  if (kind === "date") return dayLabel(label);
  if (kind === "name") return label;
  return titleCase(label);
}

/** The bar colour of a row: its status's badge colour on a status figure, else the first series colour. */
function rowColour(figure: AnalyticsFigure, label: string): string {
  const kind = analyticsInfo[figure].labels;
  return typeof kind === "object" ? toneColour[statusTone(kind.status, label)] : colours[0];
}

/** A short label for an axis (full text in the tooltip and the data table). */
const short = (text: string, max = 22) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const figureQuery = (figure: AnalyticsFigure, days?: number) => ({
  queryKey: [...queryRoots.analytics, figure, days ?? null],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api(`/analytics/${figure}`, analyticsFigureSchema, { query: { days }, signal }),
  placeholderData: keepPreviousData,
});

/** The figure's rows for its CSV: the label column, then one column per series. */
function csvRows(figure: AnalyticsFigure, data: AnalyticsFigureData): unknown[][] {
  const info = analyticsInfo[figure];
  const keys = Object.keys(info.series);
  return [
    [info.label, ...keys.map((k) => info.series[k])],
    ...data.rows.map((r) => [r.label, ...keys.map((k) => r.values[k])]),
  ];
}

/**
 * SPEC.md §2 "/analytics", made real: six figures from the database, each a chart (recharts,
 * loaded with this screen only) with its data as a table for screen readers and anyone who asks
 * ("Data table"), and a CSV download of that data.
 */
export default function AnalyticsPage() {
  const [days, setDays] = useState<number>(30);
  return (
    <>
      <PageHeader title={analyticsMsg.title} subtitle={analyticsMsg.subtitle} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <FigureCard figure="customers-by-status" />
        <FigureCard
          figure="sign-ins"
          days={days}
          controls={
            <label className="flex items-center gap-2 text-sm">
              <span className="text-base-content/80">{analyticsMsg.range}</span>
              <select className="select select-sm w-32" value={days} onChange={(e) => setDays(Number(e.target.value))}>
                {signInRanges.map((d) => (
                  <option key={d} value={d}>
                    {analyticsMsg.lastDays(d)}
                  </option>
                ))}
              </select>
            </label>
          }
        />
        <FigureCard figure="top-skills" />
        <FigureCard figure="score-by-type" />
        <FigureCard figure="comments-per-week" />
        <FigureCard figure="prompts-by-status" />
      </div>
    </>
  );
}

function FigureCard({
  figure,
  days,
  controls,
}: {
  figure: AnalyticsFigure;
  days?: number;
  controls?: React.ReactNode;
}) {
  const info = analyticsInfo[figure];
  const query = useQuery(figureQuery(figure, days));
  const data = query.data;
  const headingId = `figure-${figure}`;
  return (
    <section
      className="card border border-base-300 bg-base-100 shadow-sm"
      aria-labelledby={headingId}
      data-testid={`figure-${figure}`}
    >
      <div className="card-body gap-3 p-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={headingId} className="text-base font-semibold">
            {info.title}
          </h2>
          <div className="flex items-center gap-2">
            {controls}
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={!data}
              onClick={() =>
                data &&
                void downloadCsv(
                  `${figure}${days ? `-${days}d` : ""}-${new Date().toISOString().slice(0, 10)}.csv`,
                  csvRows(figure, data),
                )
              }
              aria-label={analyticsMsg.downloadCsv(info.title)}
            >
              <Download className="h-4 w-4" aria-hidden /> CSV
            </button>
          </div>
        </div>
        {query.error && !data ? (
          <ErrorState
            title={analyticsMsg.loadError}
            message={errorMessage(query.error)}
            onRetry={() => void query.refetch()}
          />
        ) : !data ? (
          <div className="skeleton h-64" aria-hidden />
        ) : (
          <>
            <div className="h-64 w-full" aria-hidden data-testid="chart">
              <Chart figure={figure} data={data} />
            </div>
            <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 text-sm">
              <details className="grow">
                <summary className="cursor-pointer text-base-content/80">{analyticsMsg.dataTable}</summary>
                <FigureTable figure={figure} data={data} />
              </details>
              <time
                className="text-xs leading-5 text-base-content/70"
                dateTime={data.as_of}
                title={formatFullTime(data.as_of)}
                data-testid="as-of"
              >
                {analyticsMsg.asOf(formatDateTime(data.as_of))}
              </time>
            </div>
          </>
        )}
      </div>
    </section>
  );
}

/** The chart of a figure; hidden from assistive technology, which reads the table instead. */
function Chart({ figure, data }: { figure: AnalyticsFigure; data: AnalyticsFigureData }) {
  const info = analyticsInfo[figure];
  const keys = Object.keys(info.series).filter((k) => !(figure === "score-by-type" && k === "assignments"));
  const rows = data.rows.map((r) => ({ label: labelText(figure, r.label), raw: r.label, ...r.values }));
  const axis = chartAxis;
  const common = { data: rows, margin: { top: 8, right: 8, bottom: 8, left: 0 }, accessibilityLayer: false };
  const tooltip = <ChartTooltip />;
  if (info.kind === "line") {
    return (
      <ResponsiveContainer width="100%" height="100%">
        <LineChart {...common}>
          <CartesianGrid strokeOpacity={0.2} />
          <XAxis dataKey="label" {...axis} minTickGap={24} />
          <YAxis allowDecimals={false} {...axis} width={48} />
          {tooltip}
          <Line
            type="monotone"
            dataKey={keys[0]}
            name={info.series[keys[0]]}
            stroke={colours[0]}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    );
  }
  const horizontal = figure === "top-skills";
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart {...common} layout={horizontal ? "vertical" : "horizontal"}>
        <CartesianGrid strokeOpacity={0.2} />
        {horizontal ? (
          <>
            <XAxis type="number" allowDecimals={false} {...axis} />
            <YAxis
              type="category"
              dataKey="label"
              width={160}
              interval={0}
              tickFormatter={(v: string) => short(v)}
              {...axis}
            />
          </>
        ) : (
          <>
            <XAxis dataKey="label" interval={info.labels === "date" ? "preserveStartEnd" : 0} {...axis} />
            <YAxis allowDecimals={figure === "score-by-type"} {...axis} width={48} />
          </>
        )}
        {tooltip}
        {keys.length > 1 ? <Legend /> : null}
        {keys.map((k, i) => {
          const fill = info.seriesStatus ? toneColour[statusTone(info.seriesStatus, k)] : colours[i % colours.length];
          // Two statuses with one badge colour (inactive, rejected): the later one is lighter, so
          // the stacked bars still tell them apart.
          const repeated = keys
            .slice(0, i)
            .some(
              (earlier) =>
                info.seriesStatus && statusTone(info.seriesStatus, earlier) === statusTone(info.seriesStatus, k),
            );
          return (
            <Bar
              key={k}
              dataKey={k}
              name={info.series[k]}
              fill={fill}
              fillOpacity={repeated ? 0.45 : 1}
              stackId={info.kind === "stacked" ? "a" : undefined}
              isAnimationActive={false}
            >
              {typeof info.labels === "object"
                ? rows.map((r) => <Cell key={r.raw} fill={rowColour(figure, r.raw)} />)
                : null}
            </Bar>
          );
        })}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** The figure's data as a table: the text alternative of the chart. */
function FigureTable({ figure, data }: { figure: AnalyticsFigure; data: AnalyticsFigureData }) {
  const info = analyticsInfo[figure];
  const keys = Object.keys(info.series);
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="table table-sm" aria-label={info.title}>
        <thead>
          <tr>
            <th scope="col">{info.label}</th>
            {keys.map((k) => (
              <th key={k} scope="col" className="text-right">
                {info.series[k]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r) => (
            <tr key={r.label}>
              <th scope="row" className="font-normal">
                {labelText(figure, r.label)}
              </th>
              {keys.map((k) => (
                <td key={k} className="text-right tabular-nums">
                  {r.values[k] === null ? fallbacksMsg.noDate : formatNumber(r.values[k])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
