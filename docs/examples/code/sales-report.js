// Tool composition: summarize the sales CSV, measure the file and convert its size, in one program.
// Only the figures the caller needs come back, not the three tools' full results.
const summary = await tools.local.csv_summary({ path: "examples/sales.csv", columns: ["region", "units", "revenue"] });
const stats = await tools.local.file_stats({ path: "examples/sales.csv" });
const size = await tools.local.unit_convert({ value: stats.bytes, from: "B", to: "KiB", precision: 2 });

const column = (name) => summary.columns.find((entry) => entry.name === name);
return {
  rows: summary.rows,
  lines: stats.lines,
  size: size.text,
  regions: column("region").top.map((entry) => entry.value),
  units_sold: column("units").sum,
  revenue: column("revenue").sum,
  rows_without_revenue: column("revenue").missing,
};
