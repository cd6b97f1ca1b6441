// Playground: pick a tool, fill the form made from its input schema, call it, see the result
// envelope (value or error, duration, execution id). Calls are logged with caller "toolexec-console".
import { api } from "./api.js";
import { badge, h, milliseconds, pretty, show } from "./dom.js";
import { buildSchemaForm } from "./schema-form.js";

export async function renderPlayground(main, selected) {
  const { data } = await api("/tools");
  const tools = data.tools ?? [];
  if (tools.length === 0) return show(main, h("h2", {}, "Playground"), h("p", {}, "No tools to call."));
  const tool = tools.find((candidate) => candidate.name === selected) ?? tools[0];
  const picker = h(
    "select",
    { id: "playground-tool", "aria-label": "Tool", onchange: (event) => (location.hash = `#playground/${encodeURIComponent(event.target.value)}`) },
    tools.map((candidate) => h("option", { value: candidate.name }, candidate.name)),
  );
  picker.value = tool.name;
  const form = buildSchemaForm(tool.inputSchema);
  const result = h("div", { id: "playground-result", "aria-live": "polite" });
  const call = h("button", { type: "submit", id: "playground-call" }, "Call");
  const submit = async (event) => {
    event.preventDefault();
    let args;
    try {
      args = form.read();
    } catch (error) {
      return show(result, h("p", { class: "error" }, error.message));
    }
    call.disabled = true;
    show(result, h("p", { class: "muted" }, "Calling…"));
    try {
      const { data: outcome } = await api("/call", { method: "POST", body: { tool: tool.name, arguments: args } });
      show(
        result,
        h("p", {}, badge(outcome.ok ? "ok" : "error"), " ", outcome.ok ? "" : h("strong", {}, outcome.error?.code ?? ""), outcome.durationMs === undefined ? "" : ` in ${milliseconds(outcome.durationMs)}`, outcome.executionId ? h("span", { class: "muted" }, ` · execution ${outcome.executionId}`) : ""),
        outcome.ok ? h("pre", { class: "result-value" }, pretty(outcome.value)) : h("pre", { class: "error" }, outcome.error?.message ?? pretty(outcome)),
      );
    } finally {
      call.disabled = false;
    }
  };
  show(
    main,
    h("h2", {}, "Playground"),
    h("label", { for: "playground-tool" }, "Tool "),
    picker,
    h("p", { class: "muted" }, tool.description ?? ""),
    h("form", { id: "playground-form", onsubmit: submit }, form.element, call),
    result,
  );
}
