// A loop: convert one distance into several units. call_tool is synchronous, so no await is needed.
const units = ["km", "m", "ft", "yd"];
const marathon = {};
for (const unit of units) {
  const result = call_tool("local", "unit_convert", { value: 26.2, from: "mi", to: unit, precision: 1 });
  marathon[unit] = result.ok ? result.value.value : result.error.code;
}
marathon;
