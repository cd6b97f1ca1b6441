// Quarantine: the tools tool trust holds (docs/tool-trust.md), per server, with why, what changed and
// hygiene warnings, and Approve / Deny. Approve records the tool in the lock file and lists it; Deny
// revokes its approval, so it stays held until approved.
import { api } from "./api.js";
import { badge, h, show } from "./dom.js";

async function decide(main, action, target, status) {
  status.textContent = `${action === "approve" ? "Approving" : "Denying"} ${target}…`;
  const { data } = await api(`/trust/${action}`, { method: "POST", body: { target } });
  if (!data.ok) {
    status.textContent = `${data.error?.code}: ${data.error?.message}`;
    status.className = "error";
    return;
  }
  await renderQuarantine(main);
  const done = document.getElementById("quarantine-status");
  done.textContent = `${action === "approve" ? "Approved" : "Denied"}: ${data.tools.join(", ") || target}`;
}

function toolItem(main, tool, status) {
  const changed = tool.changed ? `changed: ${[].concat(tool.changed).join(", ")}` : "";
  return h(
    "li",
    { class: "held-tool", "data-tool": tool.name },
    h("strong", {}, tool.name),
    " ",
    badge(tool.reason ?? "quarantined", "quarantined"),
    changed ? h("span", { class: "muted" }, ` ${changed}`) : "",
    h("p", {}, tool.description),
    tool.descriptionDiff ? h("pre", { class: "diff" }, tool.descriptionDiff) : "",
    tool.warnings?.length ? h("ul", { class: "warnings" }, tool.warnings.map((warning) => h("li", {}, `${warning.kind}: ${warning.message}`))) : "",
    h("button", { type: "button", class: "approve", onclick: () => decide(main, "approve", tool.name, status) }, "Approve"),
    " ",
    h("button", { type: "button", class: "deny", onclick: () => decide(main, "revoke", tool.name, status) }, "Deny"),
  );
}

export async function renderQuarantine(main) {
  const { data } = await api("/trust");
  const status = h("p", { id: "quarantine-status", role: "status" });
  const servers = (data.servers ?? []).filter((server) => server.policy !== "trust");
  const sections = servers.map((server) => {
    const held = server.tools.filter((tool) => tool.status === "quarantined");
    return h(
      "section",
      { "data-server": server.server },
      h("h3", {}, server.server, " ", badge(server.approval), h("span", { class: "muted" }, ` policy ${server.policy}${server.connected ? "" : " · not connected"}`)),
      server.approval === "pending" || server.approval === "revoked"
        ? h("p", {}, h("button", { type: "button", class: "approve-server", onclick: () => decide(main, "approve", server.server, status) }, `Approve every tool of ${server.server}`))
        : "",
      held.length === 0 ? h("p", { class: "muted" }, "Nothing held.") : h("ul", { class: "held-tools" }, held.map((tool) => toolItem(main, tool, status))),
    );
  });
  show(
    main,
    h("h2", {}, "Quarantine"),
    h("p", { class: "muted" }, `${data.quarantined ?? 0} tool${data.quarantined === 1 ? "" : "s"} held · lock file ${data.lockFile ?? ""}`),
    status,
    servers.length === 0 ? h("p", {}, 'No server has a "pin" or "quarantine" trust policy.') : sections,
  );
}
