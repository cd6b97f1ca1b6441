/**
 * The prose part of the `code_execution` description: when to use it, how the program runs, how to
 * call tools and handle their failures, the limits, and what comes back.
 */

/** The limits the host configured, so the guide can state them instead of hedging. */
export interface CodeExecutionLimits {
  /** Default deadline of one execution, in ms. */
  timeoutMs?: number;
  /** Default cap on tool calls per execution; 0 or absent means no cap. */
  maxToolCalls?: number;
  /** Servers code may call; absent means all. */
  allowedServers?: readonly string[];
}

/**
 * The guide, in Markdown, ending where the tool list begins.
 *
 * @example
 * writeCodeExecutionGuide({ timeoutMs: 120_000 }); // "Run a JavaScript program ... Timeout: 120000 ms ..."
 */
export function writeCodeExecutionGuide(limits: CodeExecutionLimits = {}): string {
  return `Run a JavaScript program in a sandbox that can call tools, and get back its result.

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
${limitLines(limits).join("\n")}

## The answer
\`{ ok, value | error: { code, message, stack? }, execution_id, logs, tool_calls: [{ server, tool, duration_ms, ok }], duration_ms }\`. The value must be JSON-serializable (no functions, symbols, BigInts or cycles: \`NOT_SERIALIZABLE\`) and not too large (\`OUTPUT_TOO_LARGE\`). A syntax error is reported before anything runs as \`SYNTAX_ERROR\` with its line and column; an uncaught exception as \`RUNTIME_ERROR\` with its stack.
`;
}

function limitLines(limits: CodeExecutionLimits): string[] {
  const timeout = limits.timeoutMs === undefined ? "each execution has a deadline" : `each execution stops after ${limits.timeoutMs} ms by default`;
  const toolCalls =
    limits.maxToolCalls === undefined || limits.maxToolCalls === 0 ? "no cap by default" : `at most ${limits.maxToolCalls} per execution by default`;
  const servers =
    limits.allowedServers === undefined
      ? "every server may be called"
      : limits.allowedServers.length === 0
        ? "no server may be called"
        : `only ${limits.allowedServers.map((server) => `\`${server}\``).join(", ")} may be called`;
  return [
    `- Timeout: ${timeout}; \`options.timeout_ms\` sets it, within the configured maximum. At the deadline the program stops with \`TIMEOUT\` and its pending tool calls are cancelled.`,
    `- Tool calls: ${toolCalls}; \`options.max_tool_calls\` sets a cap (0 = no cap). A call over the cap returns \`MAX_TOOL_CALLS_EXCEEDED\` instead of running.`,
    `- Servers: ${servers}; \`options.allowed_servers\` narrows that list. A call to another server returns \`SERVER_NOT_ALLOWED\`.`,
  ];
}
