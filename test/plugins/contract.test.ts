/** Every built-in plugin, and a host-style plugin written the documented way, pass the contract suite. */
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { abortReasonCode, toolError } from "../../src/plugin.js";
import type { ExecutorPlugin } from "../../src/index.js";
import { loadProjectConfig, type ScriptToolEntry } from "../../src/config.js";
import { humanInputPlugin } from "../../src/plugins/human/human-input-plugin.js";
import { scriptPlugin } from "../../src/plugins/script/script-plugin.js";
import { vi } from "vitest";
import { deferred } from "../helpers/deferred.js";
import { testPluginContract } from "../../src/testing.js";

function scriptProject(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-contract-"));
  mkdirSync(path.join(root, "tools"));
  writeFileSync(path.join(root, "tools", "quick.py"), "import json, sys\njson.dump({'got': json.load(sys.stdin)}, sys.stdout)\n");
  // It marks that it runs, so the suite aborts work under way rather than a spawn in progress.
  writeFileSync(path.join(root, "tools", "forever.sh"), '#!/usr/bin/env bash\ntouch "$TOOLEXEC_ROOT/forever-started"\nwhile true; do sleep 1; done\n');
  writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: {} }));
  writeFileSync(
    path.join(root, "tools.json"),
    JSON.stringify({
      tools: [
        { name: "quick", description: "Echo", runtime: "python", script: "quick.py", inputSchema: { type: "object" } },
        { name: "forever", description: "Never ends", runtime: "shell", script: "forever.sh", inputSchema: { type: "object" } },
      ],
    }),
  );
  return root;
}

let scriptRoot = "";
testPluginContract<ScriptToolEntry>("script", {
  plugin: scriptPlugin,
  entries: async () => {
    scriptRoot = scriptProject();
    return (await loadProjectConfig({ root: scriptRoot })).entries.script;
  },
  context: () => ({ root: scriptRoot }),
  quickCall: { name: "quick", arguments: { a: 1 } },
  slowCall: {
    name: "forever",
    arguments: {},
    started: async () => {
      const marker = path.join(scriptRoot, "forever-started");
      await vi.waitFor(() => {
        if (!existsSync(marker)) throw new Error("forever.sh has not started yet");
      }, { timeout: 10_000, interval: 10 });
      rmSync(marker);
    },
  },
});

/** Resolved each time the human plugin's handler receives the slow question. */
let questionAsked = deferred();

testPluginContract("human", {
  plugin: () =>
    humanInputPlugin(({ question, signal }) =>
      question === "wait"
        ? new Promise((_, reject) => {
            signal.addEventListener("abort", () => reject(new Error("withdrawn")));
            questionAsked.resolve();
          })
        : "yes",
    ),
  entries: () => [],
  quickCall: { name: "request_human_input", arguments: { question: "Proceed?" } },
  slowCall: {
    name: "request_human_input",
    arguments: { question: "wait" },
    started: async () => {
      await questionAsked.promise;
      questionAsked = deferred();
    },
  },
});

/** Resolved each time the clock plugin's sleep begins. */
let sleepStarted = deferred();

/** The smallest honest host plugin: a clock, and a tool that waits for its signal. */
function clockPlugin(): ExecutorPlugin {
  return {
    name: "clock",
    async start() {
      // Pending sleeps, each with the function that ends it, so close() can end calls under way.
      const sleeps = new Map<NodeJS.Timeout, () => void>();
      return {
        listTools: () => [
          { name: "now", description: "Current time, ISO 8601", inputSchema: { type: "object" } },
          { name: "sleep", description: "Wait for ms milliseconds", inputSchema: { type: "object", properties: { ms: { type: "integer" } } } },
        ],
        async callTool(call, { signal }) {
          if (signal.aborted) return toolError(abortReasonCode(signal), "stopped before it began");
          if (call.name === "now") return { ok: true, value: new Date().toISOString() };
          if (call.name !== "sleep") return toolError("TOOL_NOT_FOUND", `No tool ${call.name}`);
          return new Promise((resolve) => {
            const timer = setTimeout(() => {
              sleeps.delete(timer);
              resolve({ ok: true, value: "slept" });
            }, Number(call.arguments.ms ?? 60_000));
            const end = (result: ReturnType<typeof toolError>) => {
              clearTimeout(timer);
              sleeps.delete(timer);
              resolve(result);
            };
            sleeps.set(timer, () => end(toolError("EXECUTOR_CLOSED", "closed")));
            sleepStarted.resolve();
            signal.addEventListener("abort", () => end(toolError(abortReasonCode(signal), "sleep interrupted")));
          });
        },
        async close() {
          for (const end of [...sleeps.values()]) end();
        },
      };
    },
  };
}

testPluginContract("clock (host plugin example)", {
  plugin: clockPlugin,
  entries: () => [],
  quickCall: { name: "now", arguments: {} },
  slowCall: {
    name: "sleep",
    arguments: {},
    started: async () => {
      await sleepStarted.promise;
      sleepStarted = deferred();
    },
  },
});
