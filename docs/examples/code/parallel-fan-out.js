// Fan-out: independent calls started together run concurrently (these tools are marked parallel).
// Promise.all rejects on the first ToolError; call_tools keeps every envelope, failures in place.
const celsius = [-40, 0, 37, 100];
const fahrenheit = await Promise.all(
  celsius.map((value) => tools.local.unit_convert({ value, from: "C", to: "F", precision: 1 })),
);

const envelopes = await call_tools([
  { server: "local", tool: "unit_convert", args: { value: 1, from: "GiB", to: "MB", precision: 1 } },
  { server: "local", tool: "unit_convert", args: { value: 1, from: "GiB", to: "kg" } },
  { server: "local", tool: "file_stats", args: { path: "examples/sales.csv" } },
]);

return {
  fahrenheit: fahrenheit.map((result) => result.text),
  batch: envelopes.map((envelope) => (envelope.ok ? "ok" : envelope.error.code)),
  sales_csv_bytes: envelopes[2].ok ? envelopes[2].value.bytes : null,
};
