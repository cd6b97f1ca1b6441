/** `toolexec tools search` and `toolexec serve --search-first`, run as the built binary. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { SEARCH_MODEL_FOLDER, skipWithoutModel } from "../search/search-model-folder.js";
import { BIN, runCli } from "./run-cli.js";

/** Three shell tools with distinct jobs; none is ever run. */
function searchProject(toolSearch?: Record<string, unknown>) {
  const tools = [
    toolEntry("send_invoice", "shell", "noop.sh", { description: "Email an invoice to a customer." }),
    toolEntry("resize_photo", "shell", "noop.sh", { description: "Resize a photo to a given width." }),
    toolEntry("disk_usage", "shell", "noop.sh", { description: "Report how much disk space each folder uses." }),
  ];
  const project = createTempProject({ tools: { tools, ...(toolSearch ? { toolSearch } : {}) } });
  project.write("tools/noop.sh", "#!/bin/sh\necho null\n");
  return project;
}

describe("toolexec tools search", () => {
  it("prints the ranked tools, or exact JSON, for a request", async () => {
    const project = searchProject();
    const text = await runCli(["tools", "search", "make this picture smaller", "--root", project.root, "--limit", "2"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ 1\. resize_photo {2}\d+\.\d{3} {2}Resize a photo to a given width\.\n/);
    const json = await runCli(["tools", "search", "how full is the disk", "--root", project.root, "--json", "--limit", "1"]);
    expect(JSON.parse(json.stdout)).toEqual([{ name: "disk_usage", score: expect.any(Number), summary: "Report how much disk space each folder uses." }]);
  });

  it("refuses a blank request and a limit out of range", async () => {
    const project = searchProject();
    expect(await runCli(["tools", "search", " ", "--root", project.root])).toMatchObject({ code: 2, stderr: expect.stringContaining("Give the request to search for, in plain words") });
    expect(await runCli(["tools", "search", "disk", "--root", project.root, "--limit", "101"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--limit expects a whole number from 1 to 100, got 101") });
  });

  it.skipIf(skipWithoutModel)("ranks with tools.json's toolSearch.model and prints the first use's progress on stderr", async () => {
    const project = searchProject({ model: SEARCH_MODEL_FOLDER });
    const first = await runCli(["tools", "search", "bill the client", "--root", project.root, "--json"]);
    expect(first.stderr).toContain("embedding tools for search: 3/3");
    expect(JSON.parse(first.stdout)[0]).toMatchObject({ name: "send_invoice" });
    const second = await runCli(["tools", "search", "bill the client", "--root", project.root, "--json"]);
    expect(second.stderr).not.toContain("embedding tools");
  });
});

describe("toolexec serve --search-first", () => {
  it("serves only search_tools, describe_tools, call_tool, read_result and the pinned request_human_input; the rest stay describable", async () => {
    const project = searchProject();
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "serve", "--search-first", "--root", project.root], stderr: "pipe" });
    const client = new Client({ name: "search-first-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["call_tool", "describe_tools", "read_result", "request_human_input", "search_tools"]);
      const described = await client.callTool({ name: "describe_tools", arguments: { names: ["disk_usage"] } });
      const [part] = described.content as Array<{ type: string; text: string }>;
      expect(JSON.parse(part!.text)).toMatchObject([{ name: "disk_usage", description: "Report how much disk space each folder uses.", inputSchema: { type: "object" } }]);
    } finally {
      await client.close();
    }
  });
});
