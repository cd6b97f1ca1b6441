/**
 * The `codeExecution` object of tools.json and of `createExecutor({ codeExecution })`: code mode's
 * switch, its per-request defaults and the ceilings a request may not exceed.
 */
import { z } from "zod";
import { DEFAULT_CODE_MAX_CODE_BYTES, DEFAULT_CODE_MAX_LOG_BYTES, DEFAULT_CODE_MAX_QUEUE, DEFAULT_CODE_MAX_RESULT_BYTES, DEFAULT_CODE_TIMEOUT_MS, DEFAULT_MAX_SAVED_TOOL_DEPTH, DEFAULT_CODE_MEMORY_LIMIT_MB, MAX_CODE_TIMEOUT_MS, MIN_CODE_MEMORY_LIMIT_MB } from "./code-execution-limits.js";

export * from "./code-execution-limits.js";

const positiveInteger = z.number().int().positive();
const serverName = z.string().min(1);

/** The keys shared by tools.json and the executor option. */
export const codeExecutionConfigSchema = z
  .strictObject({
    enabled: z.boolean().optional().describe("Offer the code_execution tool and executor.executeCode (default false)."),
    timeoutMs: positiveInteger
      .max(MAX_CODE_TIMEOUT_MS)
      .optional()
      .describe(`Budget of one run in ms when the request names none, queueing included (default ${DEFAULT_CODE_TIMEOUT_MS}).`),
    maxTimeoutMs: positiveInteger
      .max(MAX_CODE_TIMEOUT_MS)
      .optional()
      .describe("Largest timeout_ms a request may ask for (default: timeoutMs)."),
    maxToolCalls: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe("Tool calls one run may make; 0 is unlimited (default 0). A request may lower it, never raise it."),
    allowedServers: z
      .array(serverName)
      .optional()
      .describe('Servers code may call ("local" for tools.json tools, "human", MCP server names); absent allows all, [] allows none.'),
    excludeTools: z.array(z.string().min(1)).optional().describe("Registry names of tools code may not call and is not told about."),
    listOnlyCodeExecution: z
      .boolean()
      .optional()
      .describe(
        "List only code_execution and the excludeTools to the model (executor.listTools, toolexec tools list), so it reaches the other tools through code (default false). A listing policy, not access control: callTool still runs every tool.",
      ),
    prewarm: z
      .boolean()
      .optional()
      .describe("Start one runtime in the background when code mode starts, and ready the host side of a run once it is up, so the first run does not wait (default true). false: nothing starts until code first runs, for hosts that rarely run code."),
    poolSize: positiveInteger.max(256).optional().describe("Runtimes (child processes) running code at once (default: one per CPU core, at most 10)."),
    maxQueue: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe(`Runs allowed to wait for a free runtime; past it QUEUE_FULL (default ${DEFAULT_CODE_MAX_QUEUE}).`),
    memoryLimitMb: positiveInteger
      .min(MIN_CODE_MEMORY_LIMIT_MB)
      .optional()
      .describe(`Memory cap of one runtime in MiB: its JavaScript heap, and its resident size beyond its start-up size (default ${DEFAULT_CODE_MEMORY_LIMIT_MB}).`),
    maxResultBytes: positiveInteger.optional().describe(`Cap on a run's result as JSON, in bytes (default ${DEFAULT_CODE_MAX_RESULT_BYTES}).`),
    maxLogBytes: positiveInteger.optional().describe(`Cap on the console output kept per run, in bytes (default ${DEFAULT_CODE_MAX_LOG_BYTES}).`),
    maxCodeBytes: positiveInteger.optional().describe(`Cap on the submitted code, in bytes (default ${DEFAULT_CODE_MAX_CODE_BYTES}).`),
    allowSavingTools: z
      .boolean()
      .optional()
      .describe("Offer save_tool and delete_saved_tool to models (default true). When false, saved tools still run and list_saved_tools/show_saved_tool stay; the host can still save through the library."),
    maxSavedToolDepth: positiveInteger
      .max(100)
      .optional()
      .describe(`Saved tools that may run inside each other in one chain of calls; the next is refused with RECURSION_LIMIT (default ${DEFAULT_MAX_SAVED_TOOL_DEPTH}).`),
    maxDescriptionBytes: positiveInteger
      .optional()
      .describe("Cap on the code_execution tool's description; past it tools are listed by name for describe_tool/search_tools (default 24576)."),
  })
  .describe("Code mode: the code_execution tool that runs JavaScript in a sandbox and calls tools from it. Off unless enabled.");

export type CodeExecutionConfig = z.infer<typeof codeExecutionConfigSchema>;
