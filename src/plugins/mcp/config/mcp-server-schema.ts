/**
 * One server entry of mcp.json, in the union of the shapes MCP clients write: Claude Desktop and
 * Cursor (`command` / `url`), Claude Code (`type`), VS Code (`type`, `envFile`, `dev`, `gallery`),
 * plus toolexec's own per-server options. Unknown keys are errors.
 */
import { z } from "zod";
import { MAX_TIMEOUT_MS, resultsSettingsSchema } from "../../../core/config/tools-config-schema.js";
import {
  DEFAULT_MCP_MAX_CONCURRENCY,
  DEFAULT_MCP_MAX_DELAY_MS,
  DEFAULT_MCP_MAX_RESPONSE_BYTES,
  DEFAULT_MCP_MIN_DELAY_MS,
  DEFAULT_MCP_RETRIES,
  MAX_TOOL_PATTERN_LENGTH,
  SERVER_START_MODES,
  TRANSPORT_SPELLINGS,
  TRUST_POLICIES,
  type TransportSpelling,
} from "./mcp-config-constants.js";

export * from "./mcp-config-constants.js";

/** Tool names or glob patterns (`*` any run of characters, `?` one character), matched against the server's own tool names. */
export const toolPatternsSchema = z.array(z.string().min(1).max(MAX_TOOL_PATTERN_LENGTH));
export const trustPolicySchema = z.enum(TRUST_POLICIES);

const spellings = Object.keys(TRANSPORT_SPELLINGS) as [TransportSpelling, ...TransportSpelling[]];
const nonEmpty = z.string().min(1);
const strings = z.record(z.string(), z.string());

export const mcpRetrySchema = z
  .strictObject({
    retries: z.number().int().min(0).max(100).optional().describe(`Retries of a failed connection or call (default ${DEFAULT_MCP_RETRIES}).`),
    minDelayMs: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional().describe(`First backoff delay in ms (default ${DEFAULT_MCP_MIN_DELAY_MS}).`),
    maxDelayMs: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional().describe(`Cap on one backoff delay in ms (default ${DEFAULT_MCP_MAX_DELAY_MS}).`),
  })
  .describe("Backoff policy: exponential with jitter, capped.");

/** The grants toolexec runs for a server: a person logs in, or the client authenticates as itself. */
export const OAUTH_GRANTS = ["authorization_code", "client_credentials"] as const;
/** What a per-user server does with calls that come with no principal. */
export const PER_USER_ANONYMOUS_MODES = ["refuse", "shared"] as const;
/** How the client proves itself at the token endpoint (RFC 7591 `token_endpoint_auth_method`). */
export const OAUTH_TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none", "private_key_jwt"] as const;

export const mcpOAuthSchema = z
  .strictObject({
    grant: z.enum(OAUTH_GRANTS).optional().describe('"authorization_code" (a person logs in; the default) or "client_credentials" (machine to machine).'),
    clientId: nonEmpty.optional().describe("A client registered ahead with the authorization server; without it toolexec uses `clientMetadataUrl` or registers itself (dynamic registration)."),
    clientSecret: nonEmpty.optional().describe("The registered client's secret; write it as ${VAR}."),
    clientMetadataUrl: nonEmpty.optional().describe("An https URL of this client's metadata document, used as its client_id where the authorization server supports client ID metadata documents."),
    scopes: z.union([z.array(nonEmpty), nonEmpty]).optional().describe("Scopes to ask for when the server does not say (an array, or one space-separated string)."),
    callbackPort: z.number().int().min(1).max(65535).optional().describe("Loopback port of the redirect URI http://127.0.0.1:<port>/callback (default 33418); must match a pre-registered client's redirect URI."),
    privateKey: nonEmpty.optional().describe("client_credentials with private_key_jwt: the PEM private key that signs the client assertion; write it as ${VAR}."),
    signingAlgorithm: nonEmpty.optional().describe('private_key_jwt: the JWS algorithm (default "RS256").'),
    issuer: nonEmpty.optional().describe("client_credentials: the authorization server the credentials belong to; they are sent to no other."),
    tokenEndpointAuthMethod: z.enum(OAUTH_TOKEN_ENDPOINT_AUTH_METHODS).optional().describe("How a pre-registered client authenticates at the token endpoint (default: the best the server supports)."),
    perUser: z.boolean().optional().describe("true: every served principal signs in on its own (`toolexec auth login <server> --as <principal>`) and its calls carry only its own token, over its own connection; a principal without a login gets AUTH_REQUIRED (default false: one shared login). docs/identity.md."),
    anonymous: z.enum(PER_USER_ANONYMOUS_MODES).optional().describe('With "perUser": what calls without a principal (the host\'s own, `local` served callers) get: "refuse" (AUTH_REQUIRED; the default) or "shared" (the shared login of `toolexec auth login <server>`).'),
  })
  .describe("OAuth 2.1 for an http / sse server (docs/auth.md).");

/** Cursor's spelling of a pre-registered client (`"auth": { "CLIENT_ID", "CLIENT_SECRET", "scopes" }`). */
export const cursorAuthSchema = z
  .strictObject({
    CLIENT_ID: nonEmpty.describe("The pre-registered client's id."),
    CLIENT_SECRET: nonEmpty.optional().describe("Its secret; write it as ${VAR}."),
    scopes: z.array(nonEmpty).optional().describe("Scopes to ask for when the server does not say."),
  })
  .describe('Cursor\'s spelling of `oauth: { clientId, clientSecret, scopes }`.');

const installTimeoutSchema = z.number().int().positive().max(MAX_TIMEOUT_MS).describe("stdio: budget of the server's first start in this process, for a package runner (npx, uvx, pipx run, bunx) that may download it first; the server is `installing` meanwhile (default: the executor's `mcp.installTimeoutMs`, 120000, for package runners; none for other commands).");
const startSchema = z.enum(SERVER_START_MODES).describe('stdio: "eager" starts the server with the executor; "lazy" on the first call that needs it, its tools listed meanwhile from the list its last run cached (default: the executor\'s `mcp.start`, "eager"; `toolexec serve`: "lazy").');
const idleTimeoutSchema = z.number().int().positive().max(MAX_TIMEOUT_MS).describe("stdio: stop the server after this many ms without calls (calls under way and resource subscriptions count as use); the next call starts it again. Default: never.");

/** A Python server file toolexec runs in its own environment (docs/python-tools.md). */
export const pythonServerSchema = z
  .strictObject({
    server: nonEmpty.describe('The Python file that defines the server, relative to the project ("servers/weather.py"), optionally with its server object ("servers/weather.py:app"; default: `mcp`, `server` or `app`, else the only one): a FastMCP of the mcp SDK 1.x or of the fastmcp package, or an MCPServer of the mcp SDK 2.x. It is run on stdio whether or not it calls run() itself.'),
    requirements: z.union([z.array(z.string()), nonEmpty]).optional().describe('The packages of its environment: requirement specifiers (["mcp==1.26.0"]) or a requirements.txt / pyproject.toml relative to the project. Default: a pyproject.toml beside the file, else none (the interpreter as it is). toolexec builds one virtual environment per distinct set (uv when on PATH, else venv + pip), shared with tools.json\'s and cached across projects.'),
    interpreter: nonEmpty.optional().describe('The Python the environment is made from (default "python3").'),
    installer: z.enum(["uv", "pip"]).optional().describe('"uv" or "pip" (default: uv when on PATH, else venv + pip).'),
  })
  .describe("stdio: a Python MCP server file (FastMCP, MCPServer) run in its own environment, instead of `command`.");

/** mcp.json's `serverDefaults`: toolexec's per-server options, for every entry that does not set them (stdio-only keys apply to stdio servers only). */
export const serverDefaultsSchema = z
  .strictObject({
    start: startSchema.optional(),
    idleTimeoutMs: idleTimeoutSchema.optional(),
    installTimeoutMs: installTimeoutSchema.optional(),
    timeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional().describe("Budget of one call of a server's tools (default: the executor's defaultTimeoutMs)."),
    retry: mcpRetrySchema.optional(),
    maxConcurrency: z.number().int().positive().optional().describe(`Calls run at once on one server (default ${DEFAULT_MCP_MAX_CONCURRENCY}).`),
    maxResponseBytes: z.number().int().positive().optional().describe(`Largest result of one call, as JSON (default ${DEFAULT_MCP_MAX_RESPONSE_BYTES}).`),
    results: resultsSettingsSchema.optional().describe("The result budget of every server's tools (see an entry's `results`)."),
  })
  .describe("Defaults for every server entry: an entry's own key wins (`retry` key by key).");
export type McpServerDefaults = z.infer<typeof serverDefaultsSchema>;

export const mcpServerEntrySchema = z
  .strictObject({
    type: z.enum(spellings).optional().describe('Transport: "stdio", "http" (also "streamable-http", "streamableHttp") or "sse". Inferred when absent.'),
    transport: z.enum(spellings).optional().describe("Another spelling of `type`."),
    command: nonEmpty.optional().describe("stdio: the program to start."),
    python: pythonServerSchema.optional(),
    args: z.array(z.string()).optional().describe("stdio: its arguments."),
    env: strings.optional().describe("stdio: environment variables, added to a small allowlist of host variables."),
    envFile: nonEmpty.optional().describe("stdio: a dotenv file (relative to the project) merged under `env` (VS Code)."),
    cwd: nonEmpty.optional().describe("stdio: working directory, relative to the project."),
    url: nonEmpty.optional().describe("http / sse: the server's URL."),
    serverUrl: nonEmpty.optional().describe("Another spelling of `url` (Windsurf)."),
    headers: strings.optional().describe("http / sse: HTTP headers sent with every request."),
    oauth: z.union([z.literal(false), mcpOAuthSchema]).optional().describe("http / sse: OAuth settings, or false to never authorize (default: OAuth when the server asks for it and no Authorization header is set)."),
    auth: cursorAuthSchema.optional(),
    enabled: z.boolean().optional().describe("false: keep the entry but do not start the server (default true)."),
    disabled: z.boolean().optional().describe('Cline\'s and Roo Code\'s spelling: true is "enabled": false.'),
    autoApprove: z.array(z.string()).optional().describe("Cline's and Roo Code's approval list; accepted and ignored: toolexec's trust settings are `trust` (docs/tool-trust.md)."),
    alwaysAllow: z.array(z.string()).optional().describe("Roo Code's approval list; accepted and ignored: toolexec's trust settings are `trust` (docs/tool-trust.md)."),
    prefix: z.boolean().optional().describe('false: expose the server\'s tools under their own names, without the "server__" prefix (transparent proxying; default true). A clash with another tool keeps the first and warns.'),
    timeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional().describe("Budget of one call of this server's tools, reconnecting included (default: the executor's defaultTimeoutMs)."),
    installTimeoutMs: installTimeoutSchema.optional(),
    start: startSchema.optional(),
    idleTimeoutMs: idleTimeoutSchema.optional(),
    retry: mcpRetrySchema.optional(),
    results: resultsSettingsSchema.optional().describe("The result budget of this server's tools: characters of a result a model gets before the rest is kept for read_result (default: tools.json's defaults.results, else 25000)."),
    maxConcurrency: z.number().int().positive().optional().describe(`Calls run at once on this server (default ${DEFAULT_MCP_MAX_CONCURRENCY}).`),
    maxResponseBytes: z.number().int().positive().optional().describe(`Largest result of one call, as JSON (default ${DEFAULT_MCP_MAX_RESPONSE_BYTES}).`),
    includeTools: toolPatternsSchema.optional().describe("Only these of the server's tools (names or globs: `*`, `?`) enter the registry (Gemini CLI's key). `excludeTools` wins over it."),
    excludeTools: toolPatternsSchema.optional().describe("These of the server's tools (names or globs: `*`, `?`) never enter the registry: not listed, not callable, not described to a model (Gemini CLI's key)."),
    disabledTools: toolPatternsSchema.optional().describe("Another spelling of `excludeTools` (Cline, Roo Code)."),
    trust: trustPolicySchema.optional().describe('Tool trust policy: "trust" (use tools as they are), "pin" (quarantine new or changed tools until approved) or "quarantine" (hold the whole server until approved). Default: mcp.json\'s top-level "trust", else "trust". See docs/tool-trust.md.'),
    quarantined: z.boolean().optional().describe('true: another spelling of "trust": "quarantine" (mcpproxy); false: no effect.'),
    dev: z.record(z.string(), z.unknown()).optional().describe("VS Code's development-mode settings; accepted and ignored."),
    gallery: z.union([z.boolean(), z.string()]).optional().describe("VS Code's gallery marker; accepted and ignored."),
    version: z.string().optional().describe("VS Code's installed version marker; accepted and ignored."),
  })
  .describe("One MCP server: stdio `{ command, args, env, cwd }` or remote `{ type, url, headers }`.");

/** A server entry as written, after the shape check and before interpolation. */
export type McpServerEntryFile = z.infer<typeof mcpServerEntrySchema>;
