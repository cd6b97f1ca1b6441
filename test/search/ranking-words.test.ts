/** How the ranker reads the request's words: part of a word, the words of a pasted literal, and no word at all. */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { expandQuery, rankTools } from "../../src/plugins/search/rank-tools.js";
import { createToolIndex } from "../../src/plugins/search/tool-index.js";
import type { ToolDefinition } from "../../src/plugin.js";
import { createTempProject } from "../helpers/temp-project.js";
import { CATALOG, changingPlugin, tool } from "./search-fixtures.js";

function rank(query: string, tools: readonly ToolDefinition[], limit = 3): string[] {
  const index = createToolIndex();
  index.update(tools);
  return rankTools(index, query, limit).map((result) => result.name);
}

describe("part of a word", () => {
  const maps = [
    tool("maps__geocode", "Find the latitude and longitude of an address."),
    tool("maps__elevation", "Height above sea level of a place."),
    tool("notes__configuration", "Read the configuration of the notes app."),
  ];

  it("finds a tool by the start of one of its words", () => {
    expect(rank("latit of the town hall", maps)[0]).toBe("maps__geocode");
  });

  it("finds a tool whose shorter word a longer written word begins with", () => {
    const tools = [tool("env__config", "Read settings."), tool("env__secret", "Read a secret value.")];
    expect(rank("show the configurations", tools)[0]).toBe("env__config");
  });

  it("counts a part less than a whole word, and only for words no tool has", () => {
    const tools = [tool("a__latitude", "Latitude of a place."), tool("b__latit", "Latit records.")];
    expect(rank("latit", tools)).toEqual(["b__latit"]);
  });

  it("keeps the completions current as tools come and go", () => {
    const index = createToolIndex();
    index.update(maps);
    expect(index.termsStartingWith("lati")).toEqual(["latitud"]);
    index.update(maps.slice(1));
    expect(index.termsStartingWith("lati")).toEqual([]);
    expect(rankTools(index, "latit", 3)).toEqual([]);
  });
});

describe("the words of a literal", () => {
  const tools = [
    tool("files__get_file_info", "Size, permissions and times of a file."),
    tool("ci__job_log", "The log of a CI job run."),
    tool("docs__pdf_text", "Extract the text of a PDF document."),
  ];

  it("name the thing, not what to do with it", () => {
    expect(rank("how big is /var/log/syslog and when was it last modified", tools)[0]).toBe("files__get_file_info");
  });

  it("count as hints, but a file's extension stays a word of the request", () => {
    const terms = expandQuery("read the contract.pdf");
    expect(terms.get("contract")?.weight).toBeLessThan(1);
    expect(terms.get("pdf")?.weight).toBe(1);
    expect(terms.get("read")?.weight).toBe(1);
  });
});

describe("a request that shares no word with any tool", () => {
  const opened: Executor[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((executor) => executor.close()));
  });

  it("is ranked by the word vectors over every tool instead of finding nothing", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false, plugins: [changingPlugin(CATALOG).plugin] });
    opened.push(executor);
    const [best] = await executor.searchTools("will it drizzle tomorrow", { limit: 3 });
    expect(best?.name).toBe("forecast__hourly_outlook");
  });
});
