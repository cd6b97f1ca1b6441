// Partial results: run every job, keep going past the ones that fail, and return what succeeded
// next to what failed and why, instead of losing everything to the first error.
const jobs = [
  { path: "examples/sales.csv", columns: ["units"] },
  { path: "examples/sales.csv", columns: ["discount"] }, // no such column
  { path: "examples/missing.csv" }, // no such file
  { path: "../secrets.csv" }, // outside the project
  { path: "examples/sales.csv", columns: ["revenue"] },
];

const succeeded = [];
const failed = [];
for (const args of jobs) {
  const result = call_tool("local", "csv_summary", args);
  if (!result.ok) {
    failed.push({ path: args.path, code: result.error.code, message: result.error.message });
    continue;
  }
  const [column] = result.value.columns;
  succeeded.push({ column: column.name, sum: column.sum, missing: column.missing });
}

return { succeeded, failed };
