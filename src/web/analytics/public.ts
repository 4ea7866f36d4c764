/** What other features may use of the analytics feature: its chart pieces (recharts). */
export {
  ChartTooltip,
  chartAxis,
  chartColours,
  dayLabel,
  SeriesTable,
  SmallSeriesChart,
  type SeriesRow,
} from "./charts";
