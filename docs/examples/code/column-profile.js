// Conditionals: branch on what a tool returned. Numeric columns give their totals, text columns their
// most frequent value, columns with gaps are flagged, and a second tool runs only when it is needed.
const summary = await tools.local.csv_summary({ path: "examples/sales.csv" });
const profile = {};
const gaps = [];
for (const column of summary.columns) {
  if (column.type === "number") {
    profile[column.name] = { total: column.sum, mean: column.mean };
  } else if (column.unique === column.count) {
    profile[column.name] = "all values distinct";
  } else {
    const [first] = column.top;
    profile[column.name] = `${first.value} (${first.count} of ${column.count})`;
  }
  if (column.missing > 0) gaps.push(column.name);
}

const stats = await tools.local.file_stats({ path: "examples/sales.csv" });
const size = stats.bytes >= 1024
  ? (await tools.local.unit_convert({ value: stats.bytes, from: "B", to: "KiB", precision: 1 })).text
  : `${stats.bytes} B`;

return { rows: summary.rows, size, gaps, profile };
