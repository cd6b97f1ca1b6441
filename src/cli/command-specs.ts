/**
 * Every command of `toolexec`: its arguments, flags, summary and examples. The parser checks flags
 * against these lists and the help text is printed from them, so the two cannot drift apart.
 */

export interface FlagSpec {
  type: "string" | "boolean";
  /** Placeholder of the value in help text: `<dir>`. */
  value?: string;
  description: string;
  /** The flag may be given several times; its value is then the list. */
  multiple?: true;
}

/** Every flag any command takes; a flag means the same thing wherever it is accepted. */
export const FLAGS = {
  root: { type: "string", value: "<dir>", description: "Project folder holding tools.json, mcp.json and tools/ (default: the current folder)" },
  "tools-config": { type: "string", value: "<file>", description: "Use this tools.json instead of <root>/tools.json (relative to the current folder)" },
  "mcp-config": { type: "string", value: "<file>", description: "Use this MCP config instead of <root>/mcp.json: any client's file, e.g. Claude Desktop's { \"mcpServers\": … } or VS Code's { \"servers\": … }" },
  "no-tools": { type: "boolean", description: "Run without tools.json (no local tools)" },
  "no-mcp": { type: "boolean", description: "Run without MCP servers" },
  json: { type: "boolean", description: "Print exact JSON on stdout" },
  args: { type: "string", value: "<json>", description: "The arguments, a JSON object (default {})" },
  "args-file": { type: "string", value: "<file|->", description: "Read the arguments from a file, or from stdin with -" },
  as: { type: "string", value: "<principal>", description: "A per-user server (\"oauth\": { \"perUser\": true }): sign in or out this served principal, an API key's id (toolexec keys list) or jwt:<subject>, instead of the shared login" },
  timeout: { type: "string", value: "<ms>", description: "Deadline in milliseconds (default: the tool's timeoutMs, else 30000)" },
  code: { type: "string", value: "<js>", description: "The JavaScript to run" },
  file: { type: "string", value: "<file|->", description: "Read the JavaScript from a file, or from stdin with -" },
  input: { type: "string", value: "<json>", description: "The program's `input`, as JSON" },
  "input-file": { type: "string", value: "<file|->", description: "Read `input` from a JSON file, or from stdin with -" },
  "max-tool-calls": { type: "string", value: "<n>", description: "Most tool calls the program may make" },
  "allowed-servers": { type: "string", value: "a,b", description: "Servers the program may call (only these MCP servers are started)" },
  stdio: { type: "boolean", description: "Serve over stdio (the default): stdout carries nothing but protocol" },
  http: { type: "boolean", description: "Serve over Streamable HTTP; prints the URL" },
  host: { type: "string", value: "<address>", description: "Address to bind with --http (default 127.0.0.1; any other needs --token-env)" },
  port: { type: "string", value: "<n>", description: "Port for --http (default: a free one)" },
  "token-env": { type: "string", value: "<NAME>", description: "Environment variable holding the bearer token every HTTP request must carry" },
  stateless: { type: "boolean", description: "Serve HTTP without sessions (for replicas behind a load balancer)" },
  "api-key-env": { type: "string", value: "<NAME>", description: "Environment variable holding the API key of the registry management API (/api/tools); without it the API is off" },
  "max-sessions": { type: "string", value: "<n>", description: "Most HTTP sessions served at once (default 1000); past it the one idle the longest is closed" },
  store: { type: "string", value: "<files|redis://host:port/db>", description: "Where shared state lives (registry writes, saved tools, trust decisions, OAuth tokens): the project's files (default) or Redis, shared by replicas (OAuth tokens sealed with $TOOLEXEC_STORE_KEY)" },
  "max-concurrency": { type: "string", value: "<n>", description: "Tool calls this server runs at once (default 8); more wait in a queue of 256, past it QUEUE_FULL" },
  limit: { type: "string", value: "<n>", description: "How many tools to show, best first (1-100, default 10)" },
  "search-first": { type: "boolean", description: "Show clients only search_tools, describe_tools, call_tool and the pinned tools (toolSearch.searchFirst); every tool stays callable" },
  strict: { type: "boolean", description: "Fail at start-up on any broken piece (an unresolvable MCP server, a Python entry whose function is missing, a tool whose schema cannot be used for validation) instead of running without it" },
  "log-dir": { type: "string", value: "<dir>", description: "Folder of the execution log (default: <root>/.toolexec/logs; with a config file named and no --root, one per file under ~/.local/state/toolexec/logs)" },
  since: { type: "string", value: "<1h|30m|ISO>", description: "Only calls that started at or after this: a duration back from now (30s, 15m, 1h, 2d) or an ISO 8601 time" },
  until: { type: "string", value: "<1h|30m|ISO>", description: "Only calls that started at or before this (same forms as --since)" },
  tool: { type: "string", value: "<name>", description: "Only calls of this tool" },
  server: { type: "string", value: "<name>", description: "Only calls of this MCP server's tools" },
  outcome: { type: "string", value: "<ok|error>", description: "Only calls that succeeded (ok) or failed (error)" },
  principal: { type: "string", value: "<id>", description: "Only calls made by this principal" },
  execution: { type: "string", value: "<id>", description: "This execution with the calls made under it, as a tree" },
  follow: { type: "boolean", description: "Keep printing new calls as they are logged (across rotations) until Ctrl-C" },
  console: { type: "boolean", description: "With --http: serve the web console at /console (same token as /mcp); off by default" },
  name: { type: "string", value: "<label>", description: "A label to tell the key by" },
  profile: { type: "string", value: "<name>", description: "The profile (tools.json \"profiles\") the key is bound to: its clients see that view only" },
  scope: { type: "string", value: "<server|server__tool|pattern>", multiple: true, description: "A server, tool or pattern with * the key may reach; repeat for more (default: every tool)" },
  tier: { type: "string", value: "<read|write|destructive>", description: "The most a tool called with the key may do, judged from its MCP annotations (default read)" },
  expires: { type: "string", value: "<ms|1h|30d>", description: "How long the key works: milliseconds or a duration (30m, 12h, 30d); default: until revoked" },
  "oauth-issuer": { type: "string", value: "<url>", description: "With --http: accept JWT bearer tokens from this OAuth issuer (its JWKS is found from its metadata)" },
  "oauth-audience": { type: "string", value: "<aud>", description: "With --oauth-issuer: the audience (aud) a token must name, e.g. this server's URL" },
  help: { type: "boolean", description: "Show help (for a command: toolexec <command> --help)" },
  version: { type: "boolean", description: "Show the version" },
} as const satisfies Record<string, FlagSpec>;

export type FlagName = keyof typeof FLAGS;

/** Flags of every command that works on a project's config. */
export const PROJECT_FLAGS = ["root", "tools-config", "mcp-config", "no-tools", "no-mcp"] as const satisfies readonly FlagName[];

export interface CommandSpec {
  /** Words that select the command: `"tools call"`. */
  name: string;
  /** Positional arguments after the name, for the usage line: `<name>`. */
  positionals: readonly string[];
  summary: string;
  /** The command's own flags, then `PROJECT_FLAGS` when `project`. */
  flags: readonly FlagName[];
  /** What a flag means for this command, where the shared description does not fit. */
  flagDescriptions?: Partial<Record<FlagName, string>>;
  /** The placeholder of a flag's value for this command, where the shared one does not fit. */
  flagValues?: Partial<Record<FlagName, string>>;
  project: boolean;
  /** Runs without the library (reads files only): its context's `library` is not loaded. */
  standalone?: true;
  examples: readonly string[];
}

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "init",
    positionals: [],
    summary: "Create tools.json, mcp.json and two example tools in a project folder (never overwrites a file)",
    flags: ["root"],
    project: false,
    examples: ["toolexec init", "toolexec init --root my-agent-tools && toolexec tools call word_count --root my-agent-tools --args '{\"text\": \"a b c\"}'"],
  },
  {
    name: "validate",
    positionals: [],
    summary: "Check tools.json and mcp.json, print every problem, and start the Python tools and MCP servers to name each broken piece (exit 1 when one is)",
    flags: ["json", "strict"],
    project: true,
    examples: ["toolexec validate", "toolexec validate --root ./my-project --json", "toolexec validate --strict", "toolexec validate --no-tools --mcp-config ~/.config/Claude/claude_desktop_config.json"],
  },
  {
    name: "tools list",
    positionals: [],
    summary: "List the tools with their arguments (local tools and every MCP server's)",
    flags: ["json"],
    project: true,
    examples: ["toolexec tools list", "toolexec tools list --mcp-config .vscode/mcp.json --no-tools", "toolexec tools list --json"],
  },
  {
    name: "tools call",
    positionals: ["<name>"],
    summary: "Call one tool and print its result; only the MCP server the tool belongs to is started",
    flags: ["args", "args-file", "timeout", "json", "log-dir"],
    project: true,
    examples: [
      "toolexec tools call unit_convert --args '{\"value\": 26.2, \"from\": \"mi\", \"to\": \"km\"}'",
      "echo '{\"path\": \"README.md\"}' | toolexec tools call file_stats --args-file -",
      "toolexec tools call everything__echo --args '{\"message\": \"hi\"}' --json",
    ],
  },
  {
    name: "tools search",
    positionals: ["<query>"],
    summary: "Rank the tools for a request in plain words, as search_tools does (with toolSearch.model when tools.json sets it)",
    flags: ["limit", "json"],
    project: true,
    examples: ['toolexec tools search "open a ticket about the login bug"', 'toolexec tools search "is it going to rain in Oslo" --limit 3 --json'],
  },
  {
    name: "tools review",
    positionals: [],
    summary: "Show each MCP server's trust policy and its quarantined tools: why, the description diff, hygiene warnings (exit 1 while any is held)",
    flags: ["json"],
    project: true,
    examples: ["toolexec tools review", "toolexec tools review --json"],
  },
  {
    name: "tools approve",
    positionals: ["<name>"],
    summary: "Approve a server (every tool it lists now) or one tool (server__tool): record it in .toolexec/tools.lock.json and the execution log",
    flags: ["json"],
    project: true,
    examples: ["toolexec tools approve docs", "toolexec tools approve docs__search"],
  },
  {
    name: "tools revoke",
    positionals: ["<name>"],
    summary: "Revoke a server's approval (all its tools held) or one tool's (server__tool; held until approved again)",
    flags: ["json"],
    project: true,
    examples: ["toolexec tools revoke docs", "toolexec tools revoke docs__delete_page"],
  },
  {
    name: "servers",
    positionals: [],
    summary: "Connect to the MCP servers and show each one's state (exit 1 when one is not connected)",
    flags: ["json"],
    project: true,
    examples: ["toolexec servers", "toolexec servers --mcp-config ~/.config/Claude/claude_desktop_config.json"],
  },
  {
    name: "serve",
    positionals: [],
    summary: "Serve every tool of the project as an MCP server (stdio by default, or --http); hot reload stays on",
    flags: ["stdio", "http", "host", "port", "token-env", "stateless", "api-key-env", "max-sessions", "console", "log-dir", "search-first", "strict", "store", "max-concurrency", "oauth-issuer", "oauth-audience"],
    project: true,
    examples: [
      "toolexec serve --root ./my-project   # as a client's mcp.json entry: { \"command\": \"npx\", \"args\": [\"--no-install\", \"--prefix\", \"/abs/my-project\", \"toolexec\", \"serve\", \"--root\", \"/abs/my-project\"] }",
      "toolexec serve --http --port 8931",
      "toolexec serve --search-first   # for big registries: clients find tools with search_tools",
      "TOOLEXEC_TOKEN=… toolexec serve --http --host 0.0.0.0 --token-env TOOLEXEC_TOKEN",
      "TOOLEXEC_API_KEY=… toolexec serve --http --port 8931 --api-key-env TOOLEXEC_API_KEY   # also serves /api/tools",
      "toolexec serve --http --port 8931 --console   # then open http://127.0.0.1:8931/console",
      "toolexec serve --http --stateless --store redis://redis:6379/0 --max-concurrency 16   # one of N replicas behind a load balancer",
      "toolexec serve --http --port 8931 --oauth-issuer https://auth.example.com --oauth-audience https://tools.example.com/mcp",
    ],
  },
  {
    name: "logs",
    positionals: [],
    summary: "Read the execution log: a summary per tool (calls, errors by code, p50/p95/max duration, queue wait), the calls a filter picks, one execution as a tree, or --follow",
    flags: ["log-dir", "since", "until", "tool", "server", "code", "outcome", "principal", "execution", "follow", "json", "root", "tools-config", "mcp-config"],
    flagDescriptions: {
      code: "Only calls that failed with this error code, e.g. TIMEOUT",
      json: "Print JSON: the summary as { tools: [{ tool, calls, errors, p50Ms, p95Ms, maxMs, … }] }; records and --follow as one JSON line each",
      root: "Project whose log to read: <root>/.toolexec/logs (default: the current folder's)",
      "tools-config": "Read the log of the project run with this tools.json (see --log-dir)",
      "mcp-config": "Read the log of the project run with this MCP config (see --log-dir)",
    },
    flagValues: { code: "<CODE>" },
    project: false,
    standalone: true,
    examples: [
      "toolexec logs --since 1h",
      "toolexec logs --tool everything__echo --outcome error --since 2026-11-28T09:00:00Z",
      "toolexec logs --execution 6f1c…   # a code run with its call_tool calls",
      "toolexec logs --follow --code TIMEOUT",
      "toolexec logs --mcp-config ~/.config/Claude/claude_desktop_config.json --json",
    ],
  },
  {
    name: "code exec",
    positionals: [],
    summary: "Run JavaScript in the sandbox with the project's tools",
    flags: ["code", "file", "input", "input-file", "timeout", "max-tool-calls", "allowed-servers", "json", "log-dir"],
    project: true,
    examples: [
      "toolexec code exec --code 'return await tools.local.unit_convert({ value: 1, from: \"mi\", to: \"km\" })'",
      "toolexec code exec --file report.js --input-file input.json",
    ],
  },
  {
    name: "auth login",
    positionals: ["<server>"],
    summary: "Log in to an OAuth MCP server: prints the URL to open, takes the redirect on 127.0.0.1, stores the tokens in your config folder",
    flags: ["timeout", "as", "store"],
    flagDescriptions: { timeout: "How long to wait for the login to finish, in milliseconds (default 300000)" },
    project: true,
    examples: ["toolexec auth login linear", "toolexec auth login docs --mcp-config ~/.cursor/mcp.json --timeout 600000", "toolexec auth login github --as 9f86d081884c7d65   # the key holder's own GitHub login, for a per-user server"],
  },
  {
    name: "auth status",
    positionals: [],
    summary: "Show which OAuth MCP servers are logged in (exit 1 when one needs a login)",
    flags: ["json"],
    project: true,
    examples: ["toolexec auth status", "toolexec auth status --json"],
  },
  {
    name: "auth logout",
    positionals: ["<server>"],
    summary: "Forget an OAuth MCP server's tokens and registered client",
    flags: ["as", "store"],
    project: true,
    examples: ["toolexec auth logout linear"],
  },
  {
    name: "keys create",
    positionals: [],
    summary: "Create a scoped API key for serve --http: prints it once (only its hash is stored); once any key exists every /mcp request needs a credential",
    flags: ["name", "profile", "scope", "tier", "expires", "json", "store"],
    flagDescriptions: { json: "Print { \"id\", \"key\" }" },
    project: true,
    examples: ["toolexec keys create --name ci --tier read --expires 30d", "toolexec keys create --name ops --scope github --scope notes__* --tier write --profile ops --json"],
  },
  {
    name: "keys list",
    positionals: [],
    summary: "List the API keys: id, name, profile, scopes, tier, expiry, revoked (never the keys)",
    flags: ["json", "store"],
    project: true,
    examples: ["toolexec keys list", "toolexec keys list --json"],
  },
  {
    name: "keys revoke",
    positionals: ["<id>"],
    summary: "Revoke an API key: it is refused from the next request on",
    flags: ["store"],
    project: true,
    examples: ["toolexec keys revoke 3f9a0c2b7d1e4f60"],
  },
  {
    name: "python sync",
    positionals: [],
    summary: "Build every Python environment the project's tools and Python MCP servers declare (python.requirements, pyproject.toml) ahead of time, for CI and deploys (exit 1 when one fails)",
    flags: ["json"],
    project: true,
    examples: ["toolexec python sync", "toolexec python sync --root ./my-project"],
  },
  {
    name: "python envs",
    positionals: [],
    summary: "List the project's Python environments: requirements, tools and servers using them, folder, built or not",
    flags: ["json"],
    project: true,
    examples: ["toolexec python envs", "toolexec python envs --json"],
  },
];

/** The first words of commands that have sub-commands. */
export const COMMAND_GROUPS = ["tools", "code", "auth", "python", "keys"] as const;

/** Every flag `command` accepts, help included. */
export function flagsOf(command: CommandSpec): FlagName[] {
  return [...command.flags, ...(command.project ? PROJECT_FLAGS : []), "help"];
}
