/** The `script` plugin: the Python, shell and Node scripts declared in tools.json. */
import type { ScriptToolEntry } from "../../core/config/load-tools-config.js";
import { PLUGIN_CONTRACT_VERSION, type ExecutorPlugin, type ToolDefinition } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { killProcessGroup } from "../../core/process-groups.js";

/** The run path (execa, the Python environments, containment) loads at the first call, not at start. */
let runScriptModule: Promise<typeof import("./run-script.js")> | undefined;
const loadRunScript = () => (runScriptModule ??= import("./run-script.js"));

function toDefinition(entry: ScriptToolEntry): ToolDefinition {
  return {
    name: entry.name,
    description: entry.description,
    inputSchema: entry.inputSchema,
    ...(entry.outputSchema === undefined ? {} : { outputSchema: entry.outputSchema }),
    annotations: { ...(entry.title === undefined ? {} : { title: entry.title }), ...entry.annotations },
    timeoutMs: entry.timeoutMs,
    parallel: entry.parallel,
    ...(entry.results === undefined ? {} : { results: entry.results }),
  };
}

/**
 * @example
 * const plugin = scriptPlugin(); // started by the executor with tools.json's entries
 */
export function scriptPlugin(): ExecutorPlugin<ScriptToolEntry> {
  return {
    name: "script",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    async start(entries, context) {
      const byName = new Map(entries.map((entry) => [entry.name, entry]));
      const definitions = entries.map(toDefinition);
      const secrets = [...new Set(entries.flatMap((entry) => Object.values(entry.env)))];
      const live = new Set<number>();
      const inflight = new Set<Promise<unknown>>();
      let closed = false;
      return {
        listTools: () => definitions,
        secrets: () => secrets,
        async callTool(call, options) {
          const entry = byName.get(call.name);
          if (!entry) return toolError("TOOL_NOT_FOUND", `No script tool named "${call.name}"`);
          if (closed) return toolError("EXECUTOR_CLOSED", "The script plugin is closed");
          const run = loadRunScript().then(({ runScript }) =>
            closed
              ? toolError("EXECUTOR_CLOSED", "The script plugin is closed")
              : runScript(entry, call, {
                  ...options,
                  root: context.root,
                  onSpawn: (pid) => live.add(pid),
                  onSettle: (pid) => live.delete(pid),
                }),
          );
          inflight.add(run);
          try {
            return await run;
          } finally {
            inflight.delete(run);
          }
        },
        async close() {
          closed = true;
          for (const pid of live) killProcessGroup(pid);
          await Promise.allSettled([...inflight]);
        },
      };
    },
  };
}
