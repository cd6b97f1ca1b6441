/**
 * The client under test for `@modelcontextprotocol/conformance client`: toolexec's executor, from
 * the built `dist/`, pointed at the scenario's server (the last argument) through an mcp.json entry
 * as a user would write it. It lists the server's tools, calls each one, and closes.
 *
 * Auth scenarios (`MCP_CONFORMANCE_SCENARIO` starts with `auth/`) add the entry's `oauth` settings,
 * credentials from `MCP_CONFORMANCE_CONTEXT` passed as `${VAR}` the way a user would, a token store
 * in a temporary folder, and an `onAuthorization` host callback that plays the person: it follows
 * the authorization URL without a browser and hands the redirect's code to `finishServerLogin`.
 *
 * Usage (the conformance CLI appends the URL): node test/conformance/toolexec-client.mjs <server-url>
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createExecutor } from "../../dist/index.js";
import { createFileTokenStore } from "../../dist/mcp.js";

/** Arguments for the tools the scenarios serve; any other tool is called with `{}`. */
const ARGUMENTS = { add_numbers: { a: 5, b: 3 } };
/** The client ID metadata document URL the conformance authorization server accepts. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** How long to wait for a server that needs a login to come up once the login is done. */
const LOGIN_WAIT_MS = 5_000;

const url = process.argv.at(-1);
if (!url || !/^https?:\/\//.test(url)) {
  console.error(`Expected the server URL as the last argument, got ${JSON.stringify(url)}`);
  process.exit(2);
}
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};

/** The entry's `oauth` for a scenario; credentials go through the environment, as `${VAR}`. */
function oauthSettings() {
  if (context.client_id) process.env.CONFORMANCE_CLIENT_ID = context.client_id;
  if (context.client_secret) process.env.CONFORMANCE_CLIENT_SECRET = context.client_secret;
  if (context.private_key_pem) process.env.CONFORMANCE_PRIVATE_KEY = context.private_key_pem;
  if (scenario === "auth/client-credentials-jwt") {
    return { grant: "client_credentials", clientId: "${CONFORMANCE_CLIENT_ID}", privateKey: "${CONFORMANCE_PRIVATE_KEY}", signingAlgorithm: context.signing_algorithm ?? "ES256" };
  }
  if (scenario === "auth/client-credentials-basic") return { grant: "client_credentials", clientId: "${CONFORMANCE_CLIENT_ID}", clientSecret: "${CONFORMANCE_CLIENT_SECRET}" };
  if (scenario === "auth/pre-registration") return { clientId: "${CONFORMANCE_CLIENT_ID}", clientSecret: "${CONFORMANCE_CLIENT_SECRET}" };
  return { clientMetadataUrl: CLIENT_METADATA_URL };
}

const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-conformance-"));
const auth = scenario.startsWith("auth/");
writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: { test: { type: "http", url, ...(auth ? { oauth: oauthSettings() } : {}) } } }));

let resolveExecutor;
const executorReady = new Promise((resolve) => (resolveExecutor = resolve));
/** The person: open the URL (no browser: the conformance server redirects at once) and bring back the code. */
async function logIn({ server, url: authorizationUrl }) {
  console.log(`login: ${server}`);
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`The authorization URL answered HTTP ${response.status} without a redirect`);
  const redirect = new URL(location);
  const code = redirect.searchParams.get("code");
  if (!code) throw new Error(`The redirect carries no code: ${redirect.searchParams.get("error") ?? "no error either"}`);
  const executor = await executorReady;
  const finished = await executor.finishServerLogin(server, { code, state: redirect.searchParams.get("state") ?? undefined });
  console.log(`login finished: ${JSON.stringify(finished.ok ? { ok: true, state: finished.server.state } : finished)}`);
}

/** Resolves once the server is connected, or after `LOGIN_WAIT_MS`. */
function connected(executor) {
  return new Promise((resolve) => {
    const isUp = () => executor.servers()[0]?.state === "connected";
    if (isUp()) return resolve();
    const timer = setTimeout(done, LOGIN_WAIT_MS);
    const unsubscribe = executor.on("server:connected", () => isUp() && done());
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}

let failed = false;
const executor = await createExecutor({
  root,
  toolsConfig: false,
  watch: false,
  logDir: false,
  // Accept with no fields of its own: the server's schema defaults fill the form (SEP-1034).
  onElicitation: async () => ({ action: "accept", content: {} }),
  ...(auth ? { onAuthorization: logIn, mcp: { tokenStore: createFileTokenStore(path.join(root, "tokens")) } } : {}),
});
resolveExecutor(executor);
try {
  await connected(executor);
  const [server] = executor.servers();
  console.log(`server: ${JSON.stringify(server)}`);
  if (server?.state !== "connected") failed = true;
  // The scenario's tools: read_result, the built-in that pages cut results, needs a handle.
  for (const tool of (await executor.listTools()).filter((listed) => listed.name !== "read_result")) {
    const result = await executor.callTool(tool.name, ARGUMENTS[tool.name.replace(/^test__/, "")] ?? {});
    console.log(`${tool.name}: ${JSON.stringify(result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error })}`);
    if (!result.ok) failed = true;
  }
} finally {
  await executor.close();
  rmSync(root, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
