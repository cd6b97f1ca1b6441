// Servers: each MCP server's state, transport, tool count and last error.
import { api } from "./api.js";
import { badge, h, show } from "./dom.js";

const since = (epochMs) => (epochMs === undefined ? "" : new Date(epochMs).toLocaleString());

export async function renderServers(main) {
  const { data } = await api("/servers");
  const servers = data.servers ?? [];
  const rows = servers.map((server) =>
    h(
      "tr",
      { "data-server": server.name },
      h("td", {}, server.name),
      h("td", {}, badge(server.state)),
      h("td", {}, server.connectedTransport ?? server.transport),
      h("td", { class: "number" }, String(server.tools.length)),
      h("td", {}, server.state === "connected" ? `since ${since(server.connectedAt)}` : server.nextAttemptAt ? `next attempt ${since(server.nextAttemptAt)}` : ""),
      h("td", { class: server.lastError ? "error" : "muted" }, server.lastError ? `${server.lastError.code}: ${server.lastError.message}` : "—"),
    ),
  );
  show(
    main,
    h("h2", {}, "Servers"),
    h("p", { class: "muted" }, `${data.tools} tools in the registry · project ${data.root}`),
    servers.length === 0
      ? h("p", {}, "No MCP servers are configured.")
      : h("table", {}, h("thead", {}, h("tr", {}, ["Server", "State", "Transport", "Tools", "", "Last error"].map((title) => h("th", {}, title)))), h("tbody", {}, rows)),
  );
}
