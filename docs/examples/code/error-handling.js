// Error handling, both styles. call_tool returns an envelope and never throws for a tool's fault;
// tools.<server>.<tool>() rejects with a ToolError that try/catch can inspect.
const envelope = call_tool("local", "unit_convert", { value: 5, from: "km", to: "kg" });
const converted = envelope.ok ? envelope.value.text : `${envelope.error.code}: ${envelope.error.message}`;

let caught = null;
try {
  await tools.local.file_stats({ path: "examples/missing.csv" });
} catch (error) {
  if (!(error instanceof ToolError)) throw error; // a bug in this program, not a tool's fault
  caught = { code: error.code, server: error.server, tool: error.tool, message: error.message };
}

// Arguments that do not match the tool's input schema are refused before the tool runs.
const invalid = call_tool("unit_convert", { value: "ten", from: "km", to: "mi" });

return { converted, caught, invalid: invalid.ok ? null : invalid.error };
