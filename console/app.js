// The console's entry: a hash router over five pages. No framework: each page is a function that
// fills the <main> element and returns when its data is shown.
import { forgetToken, hasToken } from "./api.js";
import { h, show } from "./dom.js";
import { renderExecutions } from "./executions-page.js";
import { renderPlayground } from "./playground-page.js";
import { renderQuarantine } from "./quarantine-page.js";
import { renderServers } from "./servers-page.js";
import { renderTools } from "./tools-page.js";

const PAGES = { servers: renderServers, tools: renderTools, playground: renderPlayground, executions: renderExecutions, quarantine: renderQuarantine };

/** `#playground/echo` → { page: "playground", argument: "echo" }. */
function route() {
  const [page = "servers", ...rest] = decodeURIComponent(location.hash.slice(1)).split("/");
  return PAGES[page] ? { page, argument: rest.join("/") } : { page: "servers", argument: "" };
}

let rendering = 0;

async function render() {
  const { page, argument } = route();
  const current = ++rendering;
  for (const link of document.querySelectorAll("nav a")) link.toggleAttribute("aria-current", link.dataset.page === page);
  const main = document.getElementById("page");
  main.dataset.page = page;
  main.setAttribute("aria-busy", "true");
  try {
    await PAGES[page](main, argument);
  } catch (error) {
    if (current === rendering) show(main, h("p", { class: "error" }, `Could not load this page: ${error?.message ?? error}`));
  } finally {
    if (current === rendering) main.setAttribute("aria-busy", "false");
    document.getElementById("forget-token").hidden = !hasToken();
  }
}

document.getElementById("forget-token").addEventListener("click", () => {
  forgetToken();
  location.reload();
});
window.addEventListener("hashchange", render);
render();
