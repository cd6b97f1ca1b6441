/** Help and usage mistakes: per-command help with examples, one-line errors with "did you mean". */
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

describe("toolexec help", () => {
  it("tools call --help prints that command's usage, flags and examples, not the global usage", async () => {
    const help = await runCli(["tools", "call", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatchInlineSnapshot(`
      "Usage: toolexec tools call <name> [options]

      Call one tool and print its result; only the MCP server the tool belongs to is started

      Options:
        --args <json>         The arguments, a JSON object (default {})
        --args-file <file|->  Read the arguments from a file, or from stdin with -
        --timeout <ms>        Deadline in milliseconds (default: the tool's timeoutMs, else 30000)
        --json                Print exact JSON on stdout
        --log-dir <dir>       Folder of the execution log (default: <root>/.toolexec/logs; with a config file named and no --root, one per file under ~/.local/state/toolexec/logs)
        -h, --help            Show help (for a command: toolexec <command> --help)

      Project options (a missing <root>/tools.json or <root>/mcp.json is skipped; a file named here must exist):
        --root <dir>           Project folder holding tools.json, mcp.json and tools/ (default: the current folder)
        --tools-config <file>  Use this tools.json instead of <root>/tools.json (relative to the current folder)
        --mcp-config <file>    Use this MCP config instead of <root>/mcp.json: any client's file, e.g. Claude Desktop's { "mcpServers": … } or VS Code's { "servers": … }
        --no-tools             Run without tools.json (no local tools)
        --no-mcp               Run without MCP servers

      Examples:
        toolexec tools call unit_convert --args '{"value": 26.2, "from": "mi", "to": "km"}'
        echo '{"path": "README.md"}' | toolexec tools call file_stats --args-file -
        toolexec tools call everything__echo --args '{"message": "hi"}' --json
      "
    `);
  });

  it("describes a shared flag as the command uses it: auth login's --timeout is how long the login may take", async () => {
    const help = (await runCli(["auth", "login", "--help"])).stdout;
    expect(help).toMatch(/--timeout <ms> +How long to wait for the login to finish, in milliseconds \(default 300000\)/);
    expect(help).not.toContain("the tool's timeoutMs");
  });

  it("help <command> is the same as <command> --help; the global help lists every command", async () => {
    expect((await runCli(["help", "tools", "call"])).stdout).toBe((await runCli(["tools", "call", "-h"])).stdout);
    const global = await runCli(["--help"]);
    expect(global.code).toBe(0);
    expect(global.stdout).toMatchInlineSnapshot(`
      "Usage: toolexec <command> [options]

      Commands:
        init                  Create tools.json, mcp.json and two example tools in a project folder (never overwrites a file)
        validate              Check tools.json and mcp.json, print every problem, and start the Python tools and MCP servers to name each broken piece (exit 1 when one is)
        tools list            List the tools with their arguments (local tools and every MCP server's)
        tools call <name>     Call one tool and print its result; only the MCP server the tool belongs to is started
        tools search <query>  Rank the tools for a request in plain words, as search_tools does (with toolSearch.model when tools.json sets it)
        tools review          Show each MCP server's trust policy and its quarantined tools: why, the description diff, hygiene warnings (exit 1 while any is held)
        tools approve <name>  Approve a server (every tool it lists now) or one tool (server__tool): record it in .toolexec/tools.lock.json and the execution log
        tools revoke <name>   Revoke a server's approval (all its tools held) or one tool's (server__tool; held until approved again)
        servers               Connect to the MCP servers and show each one's state (exit 1 when one is not connected)
        serve                 Serve every tool of the project as an MCP server (stdio by default, or --http); hot reload stays on
        logs                  Read the execution log: a summary per tool (calls, errors by code, p50/p95/max duration, queue wait), the calls a filter picks, one execution as a tree, or --follow
        code exec             Run JavaScript in the sandbox with the project's tools
        auth login <server>   Log in to an OAuth MCP server: prints the URL to open, takes the redirect on 127.0.0.1, stores the tokens in your config folder
        auth status           Show which OAuth MCP servers are logged in (exit 1 when one needs a login)
        auth logout <server>  Forget an OAuth MCP server's tokens and registered client
        keys create           Create a scoped API key for serve --http: prints it once (only its hash is stored); once any key exists every /mcp request needs a credential
        keys list             List the API keys: id, name, profile, scopes, tier, expiry, revoked (never the keys)
        keys revoke <id>      Revoke an API key: it is refused from the next request on
        python sync           Build every Python environment the project's tools and Python MCP servers declare (python.requirements, pyproject.toml) ahead of time, for CI and deploys (exit 1 when one fails)
        python envs           List the project's Python environments: requirements, tools and servers using them, folder, built or not

      Options:
        -h, --help  Show help; toolexec <command> --help shows a command's flags and examples
        --version   Show the version

      Project files: <root>/tools.json and <root>/mcp.json are used when they exist; a file named with
      --tools-config or --mcp-config must exist. Paths on the command line are relative to the current folder.
      Exit codes: 0 success, 1 the call failed or the config is invalid, 2 usage error, 130 interrupted.
      "
    `);
  });

  it("a group without its sub-command lists the group's commands and exits 2", async () => {
    const result = await runCli(["tools"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatchInlineSnapshot(`
      "Usage: toolexec tools <command> [options]

      Commands:
        tools list            List the tools with their arguments (local tools and every MCP server's)
        tools call <name>     Call one tool and print its result; only the MCP server the tool belongs to is started
        tools search <query>  Rank the tools for a request in plain words, as search_tools does (with toolSearch.model when tools.json sets it)
        tools review          Show each MCP server's trust policy and its quarantined tools: why, the description diff, hygiene warnings (exit 1 while any is held)
        tools approve <name>  Approve a server (every tool it lists now) or one tool (server__tool): record it in .toolexec/tools.lock.json and the execution log
        tools revoke <name>   Revoke a server's approval (all its tools held) or one tool's (server__tool; held until approved again)

      Run toolexec tools <command> --help for a command's flags and examples.
      "
    `);
  });

  it("no command at all prints the global help on stderr and exits 2", async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: toolexec <command> [options]");
  });
});

describe("toolexec usage errors", () => {
  const cases: Array<[string, string[]]> = [
    ["a mistyped flag", ["tools", "call", "add", "--arg", "{}"]],
    ["a mistyped command", ["tool", "list"]],
    ["a mistyped sub-command", ["tools", "lst"]],
    ["an unknown command", ["frobnicate"]],
    ["another command's flag", ["validate", "--args", "{}"]],
    ["a flag without its value", ["tools", "list", "--root"]],
    ["a missing tool name", ["tools", "call"]],
    ["--no-tools with --tools-config", ["tools", "list", "--no-tools", "--tools-config", "x.json"]],
  ];
  it.each(cases)("%s: one line and where to read the help, exit 2", async (_what, args) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toHaveLength(3);
  });

  it("says what was meant", async () => {
    const messages = await Promise.all(cases.map(async ([, args]) => (await runCli(args)).stderr.split("\n")[0]));
    expect(messages).toMatchInlineSnapshot(`
      [
        "toolexec tools call: Unknown flag --arg; did you mean --args?",
        "toolexec: Unknown command "tool"; did you mean "tools list"?",
        "toolexec tools: Unknown command "tools lst"; did you mean "tools list"? (commands: tools list, tools call, tools search, tools review, tools approve, tools revoke)",
        "toolexec: Unknown command "frobnicate" (commands: init, validate, tools list, tools call, tools search, tools review, tools approve, tools revoke, servers, serve, logs, code exec, auth login, auth status, auth logout, keys create, keys list, keys revoke, python sync, python envs)",
        "toolexec validate: --args is not a flag of "validate" (it belongs to "tools call")",
        "toolexec tools list: --root needs a value: --root <dir>",
        "toolexec tools call: Missing <name>: toolexec tools call <name>",
        "toolexec tools list: Give either --tools-config or --no-tools, not both",
      ]
    `);
  });
});
