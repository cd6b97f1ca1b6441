/**
 * The default ranker's exact output over a fixed catalog — names, order and scores — before and
 * after a change, frozen. A speed change to the index or the scores (postings, caches, lazy work)
 * must not move a single result: this fails if one does. Tied scores keep their order too.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import type { ToolDefinition } from "../../src/plugin.js";
import { createTempProject } from "../helpers/temp-project.js";
import { CATALOG, changingPlugin } from "./search-fixtures.js";

/** 400 tools on 23 servers, seeded: the same on every run. Many share words, so scores tie. */
function frozenCatalog(): ToolDefinition[] {
  let state = 7;
  const next = () => ((state = (state * 1664525 + 1013904223) >>> 0), state / 2 ** 32);
  const pick = (list: readonly string[]) => list[Math.floor(next() * list.length)] as string;
  const verbs = ["get", "list", "create", "update", "delete", "search", "send", "archive", "export", "sync"];
  const nouns = ["issue", "file", "message", "invoice", "customer", "event", "container", "ticket", "branch", "report"];
  const words = ["project", "folder", "channel", "status", "label", "owner", "date", "region", "priority", "queue", "cluster", "database"];
  return Array.from({ length: 400 }, (_, at) => {
    const verb = pick(verbs);
    const noun = pick(nouns);
    const extra = Array.from({ length: 6 }, () => pick(words)).join(" ");
    return { name: `svc${at % 23}__${verb}_${noun}_${at}`, description: `${verb} a ${noun} in service ${at % 23}. Works with ${extra}.`, inputSchema: { type: "object", properties: { [`${noun}Id`]: { type: "string", description: `The ${noun} id` }, [pick(words)]: { type: "string" } } } };
  });
}
const QUERIES = ["create an issue in the project", "send a message to the channel", "archive old tickets by priority", "export the invoice report", "sync files of a folder", "delete the container in cluster 4", "who owns the database"];

const BEFORE = [
  ["tracker__create_issue 1.1", "svc8__create_issue_192 0.9525", "svc0__create_report_0 0.7082", "svc13__create_report_381 0.6763", "svc0__create_ticket_253 0.6492", "svc20__create_ticket_89 0.6492", "svc2__create_ticket_324 0.6492", "svc9__create_event_193 0.5518"],
  ["chat__send_message 1.1", "svc12__send_message_150 0.9628", "svc13__send_message_335 0.9394", "svc15__send_message_153 0.9394", "svc0__send_message_391 0.9294", "svc12__send_message_242 0.8894", "svc2__send_message_25 0.8894", "svc3__send_message_348 0.8894"],
  ["svc1__archive_ticket_323 1.1", "svc13__archive_ticket_151 1.0382", "svc21__archive_ticket_159 1.0382", "svc6__archive_ticket_305 1.0382", "svc15__archive_issue_61 0.8329", "svc1__archive_issue_116 0.804", "svc16__archive_report_361 0.7748", "svc8__archive_report_8 0.7748"],
  ["svc10__export_invoice_171 1.1", "svc11__export_invoice_103 1.1", "svc15__export_invoice_199 1.1", "svc17__export_invoice_362 1.1", "svc18__export_invoice_133 1.1", "svc18__export_invoice_18 1.1", "svc18__export_invoice_225 1.1", "svc2__export_invoice_347 1.1"],
  ["svc3__sync_file_3 1.1", "svc14__sync_file_60 1.0624", "svc0__sync_file_184 1.0067", "svc21__sync_file_44 1.0067", "files__delete_file 0.7348", "files__read_text 0.6654", "svc21__sync_message_21 0.6384", "svc7__sync_report_191 0.6312"],
  ["svc11__delete_customer_172 1.0589", "svc18__delete_ticket_363 1.008", "svc10__delete_event_33 1.0053", "svc16__delete_customer_292 0.9884", "svc2__delete_branch_2 0.976", "svc10__delete_message_79 0.9744", "svc2__delete_message_301 0.9744", "svc22__delete_invoice_344 0.9737"],
  ["svc11__sync_event_241 1", "svc18__export_ticket_87 1", "svc8__search_invoice_238 0.9837", "svc2__search_file_370 0.8961", "svc11__list_file_356 0.8943", "svc4__list_file_349 0.8943", "svc14__list_branch_175 0.8863", "svc18__list_branch_64 0.8863"],
];

/** After one tool left, the tools ending in _26 left, and the ones ending in _40 changed. */
const AFTER = [
  ["tracker__create_issue 1.1", "svc8__create_issue_192 0.9518", "svc0__create_report_0 0.7085", "svc13__create_report_381 0.6762", "svc0__create_ticket_253 0.649", "svc20__create_ticket_89 0.649", "svc2__create_ticket_324 0.649", "svc9__create_event_193 0.5524"],
  ["chat__send_message 1.1", "svc12__send_message_150 0.9628", "svc13__send_message_335 0.9395", "svc15__send_message_153 0.9395", "svc0__send_message_391 0.9295", "svc12__send_message_242 0.8895", "svc2__send_message_25 0.8895", "svc3__send_message_348 0.8895"],
  ["svc1__archive_ticket_323 1.1", "svc13__archive_ticket_151 1.0383", "svc21__archive_ticket_159 1.0383", "svc6__archive_ticket_305 1.0383", "svc15__archive_issue_61 0.831", "svc1__archive_issue_116 0.8022", "svc16__archive_report_361 0.7748", "svc8__archive_report_8 0.7748"],
  ["svc10__export_invoice_171 1.1", "svc11__export_invoice_103 1.1", "svc15__export_invoice_199 1.1", "svc17__export_invoice_362 1.1", "svc18__export_invoice_133 1.1", "svc18__export_invoice_18 1.1", "svc18__export_invoice_225 1.1", "svc2__export_invoice_347 1.1"],
  ["svc3__sync_file_3 1.1", "svc14__sync_file_60 1.0625", "svc0__sync_file_184 1.0068", "svc21__sync_file_44 1.0068", "files__delete_file 0.7349", "files__read_text 0.6656", "svc21__sync_message_21 0.6384", "svc7__sync_report_191 0.6312"],
  ["svc11__delete_customer_172 1.0588", "svc18__delete_ticket_363 1.0079", "svc10__delete_event_33 1.0052", "svc16__delete_customer_292 0.9881", "svc2__delete_branch_2 0.9757", "svc10__delete_message_79 0.9742", "svc2__delete_message_301 0.9742", "svc22__delete_invoice_344 0.9735"],
  ["svc11__sync_event_241 1", "svc18__export_ticket_87 1", "svc8__search_invoice_238 0.9838", "svc2__search_file_370 0.8962", "svc11__list_file_356 0.8944", "svc4__list_file_349 0.8944", "svc14__list_branch_175 0.8864", "svc18__list_branch_64 0.8864"],
];

const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

describe("the default ranker over a fixed catalog", () => {
  it("ranks exactly as frozen, and after a change exactly as frozen again", async () => {
    const tools = [...CATALOG, ...frozenCatalog()];
    const { plugin, setTools } = changingPlugin(tools);
    const project = createTempProject({ tools: { tools: [] } });
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false, plugins: [plugin] });
    opened.push(executor);
    const rankAll = async () => {
      const rankings: string[][] = [];
      for (const query of QUERIES) rankings.push((await executor.searchTools(query, { limit: 8 })).map((result) => `${result.name} ${result.score}`));
      return rankings;
    };
    expect(await rankAll()).toEqual(BEFORE);
    setTools(
      tools
        .filter((tool) => tool.name !== "svc3__create_issue_3" && !tool.name.endsWith("_26"))
        .map((tool) => (tool.name.endsWith("_40") ? { ...tool, description: `${tool.description} Also creates an issue in the project.` } : tool)),
    );
    expect(await rankAll()).toEqual(AFTER);
  });
});
