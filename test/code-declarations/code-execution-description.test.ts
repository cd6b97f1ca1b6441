/** The code_execution description: the full text for the bundled tools, and the smaller forms for large catalogs. */
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/core/plugin-contract.js";
import { describeCodeExecutionTool } from "../../src/plugins/code/declarations/code-execution-description.js";
import { DEFAULT_MAX_DESCRIPTION_BYTES } from "../../src/plugins/code/declarations/resolve-code-mode-options.js";
import { SANDBOX_API_DECLARATIONS } from "../../src/plugins/code/declarations/sandbox-api-declarations.js";
import { generateToolDeclarations } from "../../src/plugins/code/declarations/tool-declarations.js";
import { bundledTools, humanTool, tool } from "./code-declarations-fixtures.js";

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** From "## Tools" to the declarations block: the part that changes with the catalog's size. */
const toolsSection = (text: string) => text.slice(text.indexOf("## Tools"), text.indexOf("```ts", text.indexOf("## Tools")));

/** `perServer` MCP-style tools on each of `servers` servers, with realistic descriptions and schemas. */
function largeCatalog(servers: number, perServer: number): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  for (let server = 0; server < servers; server++) {
    for (let index = 0; index < perServer; index++) {
      tools.push(
        tool(
          `service${server}__operation_${index}`,
          { type: "object", properties: { id: { type: "string", description: "The record's identifier, as returned by the list operation." } }, required: ["id"] },
          { type: "object", properties: { id: { type: "string" }, status: { enum: ["open", "closed"] } } },
          `Fetch record ${index} of service ${server} with its status. Prefer the list operation when you do not know the identifier.`,
        ),
      );
    }
  }
  return tools;
}

describe("describeCodeExecutionTool", () => {
  it("explains code mode and declares every tool when the catalog fits", async () => {
    const tools = [...bundledTools(), await humanTool()];
    const text = describeCodeExecutionTool(tools, { limits: { timeoutMs: 120_000 } });
    expect(bytes(text)).toBeLessThanOrEqual(DEFAULT_MAX_DESCRIPTION_BYTES);
    // The declarations close the description whole; their tools part is pinned in tool-declarations.test.ts.
    const declarations = generateToolDeclarations(tools);
    expect(text.endsWith(`\`\`\`ts\n${declarations.trimEnd()}\n\`\`\``)).toBe(true);
    const toolsPart = `${declarations.slice(SANDBOX_API_DECLARATIONS.length).trimEnd()}\n\`\`\``;
    expect(text.slice(0, -toolsPart.length)).toMatchInlineSnapshot(`
      "Run a JavaScript program in a sandbox that can call tools, and get back its result.

      Use it to do several tool calls in one step: chain calls where one result feeds the next, loop over many items, filter or aggregate large results before they reach you, or branch on what a tool returned. For a single simple call, call that tool directly instead.

      ## The program
      - JavaScript, not TypeScript (no type annotations), with top-level \`await\`. The value of the last expression statement, or of a top-level \`return\`, is the result. Return only what you need: it comes back into your context.
      - \`input\` holds the request's \`input\` field: pass data there instead of pasting it into the code.
      - \`console.log\`, \`info\`, \`warn\` and \`error\` lines come back as \`logs\`.
      - No \`require\`, \`import\`, \`fetch\`, \`process\`, file system, network or timers: everything outside the sandbox goes through tools.

      ## Calling tools
      - \`tools.<server>.<tool>(args)\` returns a promise of the tool's value and rejects with a \`ToolError\` that has \`code\` and \`message\`. A name that is not an identifier needs brackets: \`tools.local["my-tool"](args)\`.
      - \`call_tool(server, tool, args)\` returns \`{ ok: true, value }\` or \`{ ok: false, error: { code, message } }\` and never throws for a tool's fault; it works with or without \`await\`. \`call_tool(name, args)\` takes a tool's full registry name instead.
      - Servers: tools.json tools are server \`local\`; an MCP tool named \`server__tool\` is \`tools.server.tool\`; \`request_human_input\` is \`tools.human.request_human_input\`.
      - Run independent calls concurrently with \`await Promise.all([...])\`, or \`await call_tools([{ server, tool, args }, ...])\` for envelopes in the same order.

      Examples (the tool names are placeholders; use the declarations below):
      \`\`\`js
      // Branch on a failure instead of letting it end the program.
      const page = call_tool("docs", "fetch_page", { url: input.url });
      if (!page.ok) return { failed: page.error.code, message: page.error.message };
      return page.value.title;
      \`\`\`
      \`\`\`js
      // Fan out, then keep only what matters.
      const pages = await Promise.all(input.urls.map((url) => tools.docs.fetch_page({ url })));
      return pages.filter((p) => p.words > 1000).map((p) => p.url);
      \`\`\`
      \`\`\`js
      // A rejected wrapper is a ToolError.
      try {
        return await tools.docs.fetch_page({ url: input.url });
      } catch (error) {
        return \`fetch_page failed: \${error.code}: \${error.message}\`;
      }
      \`\`\`

      ## Limits
      - Timeout: each execution stops after 120000 ms by default; \`options.timeout_ms\` sets it, within the configured maximum. At the deadline the program stops with \`TIMEOUT\` and its pending tool calls are cancelled.
      - Tool calls: no cap by default; \`options.max_tool_calls\` sets a cap (0 = no cap). A call over the cap returns \`MAX_TOOL_CALLS_EXCEEDED\` instead of running.
      - Servers: every server may be called; \`options.allowed_servers\` narrows that list. A call to another server returns \`SERVER_NOT_ALLOWED\`.

      ## The answer
      \`{ ok, value | error: { code, message, stack? }, execution_id, logs, tool_calls: [{ server, tool, duration_ms, ok }], duration_ms }\`. The value must be JSON-serializable (no functions, symbols, BigInts or cycles: \`NOT_SERIALIZABLE\`) and not too large (\`OUTPUT_TOO_LARGE\`). A syntax error is reported before anything runs as \`SYNTAX_ERROR\` with its line and column; an uncaught exception as \`RUNTIME_ERROR\` with its stack.

      ## Tools
      \`\`\`ts
      /** The request's \`input\` field: any JSON value, null when the request had none. */
      declare const input: any;

      /**
       * What call_tool returns. Branch on \`ok\`: a tool's fault is a value, never a throw. \`content\` comes
       * only with results that hold more than text (images, audio, resources).
       */
      type ToolCallResult<T = unknown> =
        | { ok: true; value: T; content?: ContentBlock[] }
        | { ok: false; error: { code: string; message: string } };

      /** One part of a result. Base64 \`data\` or \`blob\` over 1 MiB is left out, and \`omitted\` says so. */
      type ContentBlock =
        | { type: "text"; text: string }
        | { type: "image" | "audio"; data?: string; mimeType: string; omitted?: string }
        | { type: "resource_link"; uri: string; name: string; mimeType?: string; description?: string }
        | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string }; omitted?: string };

      /**
       * What \`tools.<server>.<tool>()\` rejects with. \`code\` is one of "INVALID_INPUT", "INVALID_OUTPUT",
       * "TOOL_FAILED", "TIMEOUT", "CANCELLED", "TOOL_NOT_FOUND", "SERVER_NOT_ALLOWED", "MAX_TOOL_CALLS_EXCEEDED", ...
       */
      declare class ToolError extends Error {
        readonly code: string;
      }

      /** One call for call_tools. */
      type ToolCallRequest = { server: string; tool: string; args?: { [key: string]: unknown } };

      /** The arguments of \`tools[S][T]\`. */
      type ToolArguments<S extends keyof typeof tools, T extends keyof (typeof tools)[S]> =
        (typeof tools)[S][T] extends (args: infer A) => unknown ? A : never;

      /** The value \`tools[S][T]\` resolves to. */
      type ToolValue<S extends keyof typeof tools, T extends keyof (typeof tools)[S]> =
        (typeof tools)[S][T] extends (...args: never[]) => Promise<infer R> ? R : unknown;

      /** Call one tool and get its envelope; synchronous, so it works with or without \`await\`. */
      declare function call_tool<S extends keyof typeof tools, T extends keyof (typeof tools)[S]>(
        server: S,
        tool: T,
        args: ToolArguments<S, T>,
      ): ToolCallResult<ToolValue<S, T>>;
      /** Call one tool by its registry name ("csv_summary", "github__create_issue"). */
      declare function call_tool(name: string, args?: { [key: string]: unknown }): ToolCallResult;

      /** Run independent calls concurrently; the envelopes come back in the same order. */
      declare function call_tools(calls: ToolCallRequest[]): Promise<ToolCallResult[]>;

      /** The declaration of one tool (registry name or "server.tool"), or why there is none. */
      declare function describe_tool(name: string): string;

      /** Tools whose names and descriptions match the words of \`query\`, best first (default 10). */
      declare function search_tools(
        query: string,
        limit?: number,
      ): { name: string; server: string; tool: string; summary: string }[];

      /** Captured: the lines come back as \`logs\` in the result. */
      declare const console: {
        log(...values: unknown[]): void;
        info(...values: unknown[]): void;
        warn(...values: unknown[]): void;
        error(...values: unknown[]): void;
      };
      "
    `);
  });

  it("lists tool names with one-line summaries, grouped by server, when the declarations do not fit", () => {
    const text = describeCodeExecutionTool(largeCatalog(3, 40));
    expect(bytes(text)).toBeLessThanOrEqual(DEFAULT_MAX_DESCRIPTION_BYTES);
    expect(toolsSection(text).split("\n").slice(0, 8).join("\n")).toMatchInlineSnapshot(`
      "## Tools
      120 tools, too many to declare here. Inside the program, \`describe_tool("server.tool")\` returns one tool's TypeScript declaration and \`search_tools("words")\` finds tools by name and description. Call them in a first program that returns what they say when you need a tool's argument types.

      service0 (40 tools):
      - operation_0: Fetch record 0 of service 0 with its status.
      - operation_1: Fetch record 1 of service 0 with its status.
      - operation_10: Fetch record 10 of service 0 with its status.
      - operation_11: Fetch record 11 of service 0 with its status."
    `);
    expect(text).toContain("- operation_9: Fetch record 9 of service 2 with its status.");
    expect(text).toContain("declare const tools: {\n  [server: string]");
  });

  it("lists only servers with counts when even the names do not fit", () => {
    const text = describeCodeExecutionTool(largeCatalog(4, 100));
    expect(bytes(text)).toBeLessThanOrEqual(DEFAULT_MAX_DESCRIPTION_BYTES);
    expect(toolsSection(text)).toMatchInlineSnapshot(`
      "## Tools
      400 tools on 4 servers, too many to list here. Inside the program, \`describe_tool("server.tool")\` returns one tool's TypeScript declaration and \`search_tools("words")\` finds tools by name and description. Call them in a first program that returns what they say when you need a tool's argument types.

      Servers:
      - service0 (100 tools)
      - service1 (100 tools)
      - service2 (100 tools)
      - service3 (100 tools)

      "
    `);
  });

  it("cuts the server list to fit a small budget and counts the rest", () => {
    const budget = 9_000;
    const text = describeCodeExecutionTool(largeCatalog(200, 1), { maxDescriptionBytes: budget });
    expect(bytes(text)).toBeLessThanOrEqual(budget);
    expect(toolsSection(text)).toMatch(/- service\d+ \(1 tool\)\n- … and \d+ more servers\n/);
  });

  it("counts bytes, not characters", () => {
    const wide = Array.from({ length: 40 }, (_, index) => tool(`t${index}`, { type: "object" }, undefined, "Überprüft Einträge – schnell, gründlich, zuverlässig. ".repeat(6)));
    const characters = describeCodeExecutionTool(wide, { maxDescriptionBytes: 1_000_000 }).length;
    const text = describeCodeExecutionTool(wide, { maxDescriptionBytes: characters });
    expect(bytes(text)).toBeLessThanOrEqual(characters);
    expect(text).toContain("40 tools, too many to declare here.");
  });

  it("never cuts the guide and the sandbox API, even below their size", () => {
    const text = describeCodeExecutionTool(bundledTools(), { maxDescriptionBytes: 100 });
    expect(text).toContain("## Calling tools");
    expect(text).toContain("declare function call_tool(");
    expect(toolsSection(text)).toMatchInlineSnapshot(`
      "## Tools
      3 tools on 1 server, too many to list here. Inside the program, \`describe_tool("server.tool")\` returns one tool's TypeScript declaration and \`search_tools("words")\` finds tools by name and description. Call them in a first program that returns what they say when you need a tool's argument types.

      "
    `);
  });

  it("states the configured limits and leaves out tools of servers that may not be called", () => {
    const tools = [...bundledTools(), tool("github__get_issue", { type: "object" })];
    const text = describeCodeExecutionTool(tools, { exclude: ["file_stats"], limits: { maxToolCalls: 20, allowedServers: ["local"] } });
    expect(text.slice(text.indexOf("## Limits"), text.indexOf("## The answer"))).toMatchInlineSnapshot(`
      "## Limits
      - Timeout: each execution has a deadline; \`options.timeout_ms\` sets it, within the configured maximum. At the deadline the program stops with \`TIMEOUT\` and its pending tool calls are cancelled.
      - Tool calls: at most 20 per execution by default; \`options.max_tool_calls\` sets a cap (0 = no cap). A call over the cap returns \`MAX_TOOL_CALLS_EXCEEDED\` instead of running.
      - Servers: only \`local\` may be called; \`options.allowed_servers\` narrows that list. A call to another server returns \`SERVER_NOT_ALLOWED\`.

      "
    `);
    expect(text).toContain("csv_summary(args");
    expect(text).not.toContain("file_stats(args");
    expect(text).not.toContain("get_issue");
  });

  it("rejects unknown options and wrong types, naming each", () => {
    expect(() =>
      describeCodeExecutionTool([], { maxDescriptionBytes: 0, limits: { timeoutMs: -1, maxToolCalls: 1.5, allowedServers: "local", retries: 3 } } as never),
    ).toThrowErrorMatchingInlineSnapshot(`[ToolexecError: Invalid code execution description options: Expected a whole number of bytes from 1, got 0 at options.maxDescriptionBytes; Unknown option "retries" at options.limits; expected one of timeoutMs, maxToolCalls, allowedServers; Expected a whole number of ms from 1, got -1 at options.limits.timeoutMs; Expected a whole number from 0, got 1.5 at options.limits.maxToolCalls; Expected a list of server names, got "local" at options.limits.allowedServers]`);
  });
});
