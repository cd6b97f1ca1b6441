// Tools: every tool in the registry with its schemas, filtered as you type (every word must appear
// in the name or the description).
import { api } from "./api.js";
import { h, pretty, show } from "./dom.js";

const matches = (tool, words) => {
  const text = `${tool.name} ${tool.description ?? ""}`.toLowerCase();
  return words.every((word) => text.includes(word));
};

export async function renderTools(main) {
  const { data } = await api("/tools");
  const tools = data.tools ?? [];
  const list = h("ul", { class: "tools", id: "tool-list" });
  const count = h("p", { class: "muted", id: "tool-count" });
  const search = h("input", { type: "search", id: "tool-search", placeholder: "Search tools by name or description", "aria-label": "Search tools", autocomplete: "off" });
  const update = () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = tools.filter((tool) => matches(tool, words));
    count.textContent = `${shown.length} of ${tools.length} tools`;
    list.replaceChildren(
      ...shown.map((tool) =>
        h(
          "li",
          { "data-tool": tool.name },
          h(
            "details",
            {},
            h("summary", {}, h("strong", {}, tool.name), " ", h("span", { class: "muted" }, (tool.description ?? "").split("\n")[0])),
            h("p", {}, tool.description ?? ""),
            h("a", { href: `#playground/${encodeURIComponent(tool.name)}` }, "Try it in the playground"),
            h("h4", {}, "Input schema"),
            h("pre", {}, pretty(tool.inputSchema ?? {})),
            tool.outputSchema ? [h("h4", {}, "Output schema"), h("pre", {}, pretty(tool.outputSchema))] : [],
            tool.annotations ? [h("h4", {}, "Annotations"), h("pre", {}, pretty(tool.annotations))] : [],
          ),
        ),
      ),
    );
  };
  search.addEventListener("input", update);
  update();
  show(main, h("h2", {}, "Tools"), search, count, list);
  search.focus();
}
