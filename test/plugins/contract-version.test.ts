/**
 * The plugin contract is versioned: a plugin states the version it targets (`contractVersion`; none
 * means 1), `createExecutor` refuses one outside the supported range before starting anything, and a
 * version-1 plugin (name and start; listTools, callTool, close) still runs.
 */
import { describe, expect, it } from "vitest";
import { createExecutor, isToolexecError, type ExecutorPlugin } from "../../src/index.js";
import { MIN_PLUGIN_CONTRACT_VERSION, PLUGIN_CONTRACT_VERSION } from "../../src/plugin.js";
import { codePlugin } from "../../src/plugins/code/code-plugin.js";
import { humanInputPlugin } from "../../src/plugins/human/human-input-plugin.js";
import { mcpPlugin } from "../../src/plugins/mcp/mcp-plugin.js";
import { pythonPlugin } from "../../src/plugins/python/python-plugin.js";
import { scriptPlugin } from "../../src/plugins/script/script-plugin.js";
import { searchPlugin } from "../../src/plugins/search/search-plugin.js";
import { webSearchPlugin } from "../../src/plugins/web-search/web-search-plugin.js";

/** What each plugin's start saw, so a test can tell whether anything started. */
let starts: string[] = [];

/** A plugin as written for contract version 1: no contractVersion, no capabilities. */
const versionOnePlugin = {
  name: "legacy",
  async start() {
    starts.push("legacy");
    return {
      listTools: () => [{ name: "legacy_ping", description: "Answers pong", inputSchema: { type: "object" } }],
      callTool: async () => ({ ok: true as const, value: "pong" }),
      close: async () => {},
    };
  },
};

const withVersion = (contractVersion: unknown): ExecutorPlugin => ({ ...versionOnePlugin, name: "future", contractVersion } as ExecutorPlugin);

const options = { toolsConfig: false, mcpConfig: false, logDir: false, watch: false } as const;

describe("plugin contract versions", () => {
  it("runs a version-1 plugin that states no version", async () => {
    starts = [];
    const executor = await createExecutor({ ...options, plugins: [versionOnePlugin] });
    expect(await executor.callTool("legacy_ping")).toMatchObject({ ok: true, value: "pong" });
    await executor.close();
    expect(starts).toEqual(["legacy"]);
  });

  it("runs a plugin for every supported version", async () => {
    for (let version = MIN_PLUGIN_CONTRACT_VERSION; version <= PLUGIN_CONTRACT_VERSION; version++) {
      const executor = await createExecutor({ ...options, plugins: [withVersion(version)] });
      expect((await executor.listTools()).map((tool) => tool.name)).toContain("legacy_ping");
      await executor.close();
    }
  });

  it("refuses a plugin for a version it does not support, naming the plugin, its version and the range, before starting any", async () => {
    starts = [];
    const error = await createExecutor({ ...options, plugins: [versionOnePlugin, withVersion(PLUGIN_CONTRACT_VERSION + 1)] }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isToolexecError(error) && error.code).toBe("INVALID_OPTIONS");
    expect((error as Error).message).toBe(
      `Plugin "future" is written for plugin contract version ${PLUGIN_CONTRACT_VERSION + 1}; this toolexec supports versions ${MIN_PLUGIN_CONTRACT_VERSION} to ${PLUGIN_CONTRACT_VERSION}; update toolexec, or use a release of the plugin written for these versions`,
    );
    expect(starts).toEqual([]);
    for (const bad of [0, 1.5, "2"]) {
      const refused = await createExecutor({ ...options, plugins: [withVersion(bad)] }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect((refused as Error).message).toContain(`Plugin "future" is written for plugin contract version ${typeof bad === "string" ? `"${bad}"` : bad}; this toolexec supports versions`);
    }
  });

  it("has every built-in plugin state the current version", () => {
    const builtIns = [scriptPlugin(), pythonPlugin(), mcpPlugin(), codePlugin(), humanInputPlugin(() => "yes"), searchPlugin(), webSearchPlugin()];
    expect(builtIns.map((plugin) => [plugin.name, plugin.contractVersion])).toEqual(builtIns.map((plugin) => [plugin.name, PLUGIN_CONTRACT_VERSION]));
  });
});
