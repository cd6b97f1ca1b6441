// Executions: the most recent top-level calls from the execution log, newest first, each with a
// timeline: its queue wait and run as a bar, and its sub-calls (a code run's call_tool calls) as bars
// placed where they started within it. Errors show their code and message.
import { api } from "./api.js";
import { badge, h, milliseconds, pretty, show } from "./dom.js";

const startOf = (record) => Date.parse(record.time ?? "") || 0;

/** One bar of the timeline, positioned in percent of the root's span. */
function bar(node, rootStart, span, depth) {
  const { record } = node;
  const offset = Math.max(0, startOf(record) - rootStart);
  const queue = Number(record.queueMs) || 0;
  const duration = Number(record.durationMs) || 0;
  const left = (offset / span) * 100;
  const width = Math.max(0.5, (duration / span) * 100);
  const queueWidth = duration > 0 ? Math.min(100, (queue / duration) * 100) : 0;
  const label = `${record.tool} · ${milliseconds(duration)}${queue > 0 ? ` (queued ${milliseconds(queue)})` : ""}${record.ok === false ? ` · ${record.error?.code ?? "error"}` : ""}`;
  return [
    h(
      "div",
      { class: "timeline-row", style: undefined },
      h("span", { class: "timeline-label", title: label }, `${"  ".repeat(depth)}${record.tool}`),
      h("span", { class: "timeline-track" }, h("span", { class: `timeline-bar ${record.ok === false ? "failed" : ""}`, "data-left": left.toFixed(2), "data-width": width.toFixed(2), title: label }, h("span", { class: "timeline-queue", "data-width": queueWidth.toFixed(2) }))),
      h("span", { class: "timeline-duration" }, milliseconds(duration)),
    ),
    node.children.flatMap((child) => bar(child, rootStart, span, depth + 1)),
  ];
}

/** Inline styles are refused by the page's CSP; positions are set through the CSSOM instead. */
function placeBars(container) {
  for (const element of container.querySelectorAll("[data-width]")) {
    element.style.width = `${element.dataset.width}%`;
    if (element.dataset.left !== undefined) element.style.marginLeft = `${element.dataset.left}%`;
  }
}

function execution(node) {
  const { record } = node;
  const rootStart = startOf(record);
  const end = (current) => Math.max(startOf(current.record) + (Number(current.record.durationMs) || 0), ...current.children.map(end));
  const span = Math.max(1, end(node) - rootStart);
  const failures = [];
  const collect = (current) => {
    if (current.record.ok === false) failures.push(current.record);
    current.children.forEach(collect);
  };
  collect(node);
  return h(
    "li",
    { class: "execution", "data-execution": record.executionId ?? "" },
    h("details", {}, 
      h("summary", {}, badge(record.ok === false ? "error" : "ok"), " ", h("strong", {}, record.tool ?? "?"), ` ${milliseconds(record.durationMs)}`, Number(record.queueMs) > 0 ? ` · queued ${milliseconds(record.queueMs)}` : "", node.children.length > 0 ? ` · ${node.children.length} sub-call${node.children.length === 1 ? "" : "s"}` : "", h("span", { class: "muted" }, ` · ${record.time ?? ""}`)),
      h("div", { class: "timeline" }, bar(node, rootStart, span, 0)),
      failures.map((failure) => h("p", { class: "error" }, `${failure.tool}: ${failure.error?.code ?? "error"}: ${failure.error?.message ?? ""}`)),
      h("p", { class: "muted" }, `execution ${record.executionId ?? "?"}${record.caller?.name ? ` · caller ${record.caller.name}` : ""}${record.traceId ? ` · trace ${record.traceId}` : ""}`),
      h("details", {}, h("summary", {}, "Log line"), h("pre", {}, pretty(record))),
    ),
  );
}

export async function renderExecutions(main) {
  const { data } = await api("/executions?limit=50");
  const executions = data.executions ?? [];
  const list = h("ul", { class: "executions", id: "execution-list" }, executions.map(execution));
  show(
    main,
    h("h2", {}, "Recent executions"),
    h("p", { class: "muted" }, data.logDir ? `From ${data.logDir} (newest first; the log is written within a second of each call)` : "This executor writes no execution log."),
    h("button", { type: "button", id: "executions-refresh", onclick: () => renderExecutions(main) }, "Refresh"),
    executions.length === 0 ? h("p", {}, "No executions logged yet.") : list,
  );
  placeBars(main);
}
