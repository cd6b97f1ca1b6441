/** The ranker on its own: stems, fields, stable order, the request's action, routing to built-ins. */
import { describe, expect, it } from "vitest";
import { rankTools } from "../../src/plugins/search/rank-tools.js";
import { stemWord } from "../../src/plugins/search/stem-word.js";
import { createToolIndex } from "../../src/plugins/search/tool-index.js";
import { tokenizeText } from "../../src/plugins/search/tokenize-text.js";
import type { ToolDefinition } from "../../src/plugin.js";
import { CATALOG } from "./search-fixtures.js";

const HUMAN: ToolDefinition = {
  name: "request_human_input",
  description: "Ask a person a question and wait for the answer.",
  inputSchema: { type: "object", properties: { question: { type: "string" } } },
  server: { name: "human", tool: "request_human_input" },
};

function rank(query: string, tools: readonly ToolDefinition[] = [...CATALOG, HUMAN], limit = 5): string[] {
  const index = createToolIndex();
  index.update(tools);
  return rankTools(index, query, limit).map((result) => result.name);
}

describe("words", () => {
  it("stems with Porter's rules", () => {
    expect(["connection", "connected", "connecting", "connects"].map(stemWord)).toEqual(["connect", "connect", "connect", "connect"]);
    expect(["relational", "hopping", "ponies", "sky"].map(stemWord)).toEqual(["relat", "hop", "poni", "sky"]);
  });

  it("splits names on _ - . __ and camelCase, and drops stop words", () => {
    expect(tokenizeText("calendar__listEvents")).toEqual(["calendar", "list", "event"]);
    expect(tokenizeText("my-server.read_text please")).toEqual(["server", "read", "text"]);
  });
});

describe("ranking", () => {
  it("gives the same order for the same tools, whatever order they come in", () => {
    const forward = rank("remove the event", CATALOG, 10);
    const backward = rank("remove the event", [...CATALOG].reverse(), 10);
    expect(forward).toEqual(backward);
    expect(rank("remove the event", CATALOG, 10)).toEqual(forward);
  });

  it("matches a request in other words through stems and related words", () => {
    expect(rank("erase that mail from the mailbox about the invoice")[0]).toBe("mail__delete_email");
    expect(rank("open a ticket in the tracker for the login bug")[0]).toBe("tracker__create_issue");
  });

  it("prefers the tool whose action fits the request among a product's tools", () => {
    expect(rank("which issues are still open in the tracker?")[0]).toBe("tracker__list_issues");
    expect(rank("mark tracker issue 12 as closed")[0]).toBe("tracker__update_issue");
  });

  it("reads literals: a path means the local disk", () => {
    expect(rank("show me ./notes/todo.txt")[0]).toBe("files__read_text");
  });

  it("returns nothing for a query with no known word, and respects the limit", () => {
    expect(rank("zzqx")).toEqual([]);
    expect(rank("delete", CATALOG, 2)).toHaveLength(2);
  });
});

describe("routing to the built-ins", () => {
  it("sends a vague request to the person", () => {
    expect(rank("rename that one")[0]).toBe("request_human_input");
    expect(rank("remove those")[0]).toBe("request_human_input");
  });

  it("keeps a short plain command, which refers to nothing, with its tool", () => {
    expect(rank("list my emails")[0]).toBe("mail__list_inbox");
    expect(rank("delete a file")[0]).toBe("files__delete_file");
  });

  it("keeps a specific request with the tool it names", () => {
    expect(rank("remove the dentist event from my calendar")[0]).toBe("calendar__remove_event");
  });

  it("sends computation and many-step work to code execution", () => {
    expect(rank("compound interest on 12000 at 4% over 9 years")[0]).toBe("sandbox__code_execution");
    expect(rank("for each issue in the tracker, read its file and send a message with the totals")[0]).toBe("sandbox__code_execution");
  });

  it("does not route without the built-in registered", () => {
    expect(rank("rename that one", CATALOG)).not.toContain("request_human_input");
  });
});

describe("the request's tense", () => {
  it("reads a question about what happened as asking for a history, not for the action", () => {
    const ci: ToolDefinition[] = [
      { name: "ci__restart_job", description: "Restart a CI job by its id.", inputSchema: { type: "object", properties: { jobId: { type: "string" } } } },
      { name: "ci__job_history", description: "Past runs of a CI job: when, by whom, with what outcome.", inputSchema: { type: "object", properties: { jobId: { type: "string" } } } },
    ];
    expect(rank("who restarted the nightly job?", ci)[0]).toBe("ci__job_history");
    expect(rank("restart the nightly job", ci)[0]).toBe("ci__restart_job");
  });

  it("counts a past-tense verb of such a question as what the history is about, not as the operation wanted", () => {
    const admin: ToolDefinition[] = [
      { name: "admin__suspend_user", description: "Suspend a user account.", inputSchema: { type: "object", properties: { userId: { type: "string" } } } },
      { name: "admin__audit_log", description: "List admin actions on user accounts, newest first.", inputSchema: { type: "object", properties: { userId: { type: "string" } } } },
    ];
    expect(rank("which users were suspended on monday?", admin)[0]).toBe("admin__audit_log");
    expect(rank("suspend the user ana", admin)[0]).toBe("admin__suspend_user");
  });
});

describe("phrasal verbs", () => {
  it("takes the action of the verb with its particle", () => {
    expect(rank("set up a tracker issue for the login bug")[0]).toBe("tracker__create_issue");
  });
});
