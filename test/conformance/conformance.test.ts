/**
 * The client scenarios of `@modelcontextprotocol/conformance` (`--suite all`: core, auth, back-compat,
 * extensions and draft), run against toolexec's executor: the conformance CLI starts each
 * scenario's server (and authorization server) on localhost and runs `toolexec-client.mjs` (built
 * `dist/`, an mcp.json entry, list tools, call each, close) with the server's URL, then grades what
 * the servers saw. Needs `npm run build` first (`npm test` does it).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPOSITORY, runConformanceCli, type Check } from "./run-conformance-cli.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const CLIENT = path.join(here, "toolexec-client.mjs");
/** The CLI's own limit on one client run; the test's limit sits above it so the CLI reports first. */
const CLIENT_TIMEOUT_MS = 15_000;

interface ScenarioRun {
  checks: Check[];
  /** What toolexec-client.mjs printed: the server's state and each call's result. */
  clientOutput: string;
  /** The CLI's report (client exit code, timeouts, the graded checks). */
  report: string;
}

const scenarios: Array<{ name: string; required: string[]; clientPrints: string[] }> = [
  { name: "initialize", required: ["mcp-client-initialization"], clientPrints: ['"state":"connected"'] },
  { name: "tools_call", required: ["tool-add-numbers"], clientPrints: ['test__add_numbers: {"ok":true,"value":"The sum of 5 and 3 is 8"}'] },
  {
    name: "elicitation-sep1034-client-defaults",
    required: ["string", "integer", "number", "enum", "boolean"].map((kind) => `client-elicitation-sep1034-${kind}-default`),
    clientPrints: ['test__test_client_elicitation_defaults: {"ok":true'],
  },
  {
    name: "sse-retry",
    required: ["client-sse-graceful-reconnect", "client-sse-retry-timing", "client-sse-last-event-id"],
    clientPrints: ['test__test_reconnection: {"ok":true,"value":"Reconnection test completed successfully"}'],
  },
];

/** The tool every auth scenario serves once the client is authorized. */
const AUTH_TOOL_CALLED = 'test__test-tool: {"ok":true,"value":"test"}';

/**
 * Auth scenarios, graded by their own checks (every one must pass; their ids vary with the path the
 * flow takes) and by what the client printed. `refuses`: the scenario wants no connection at all.
 */
const authScenarios: Array<{ name: string; refuses?: true }> = [
  "metadata-default",
  "metadata-var1",
  "metadata-var2",
  "metadata-var3",
  "basic-cimd",
  "scope-from-www-authenticate",
  "scope-from-scopes-supported",
  "scope-omitted-when-undefined",
  "scope-step-up",
  "scope-retry-limit",
  "token-endpoint-auth-basic",
  "token-endpoint-auth-post",
  "token-endpoint-auth-none",
  "pre-registration",
  "2025-03-26-oauth-metadata-backcompat",
  "2025-03-26-oauth-endpoint-fallback",
  "offline-access-scope",
  "offline-access-not-supported",
  "client-credentials-jwt",
  "client-credentials-basic",
].map((name) => ({ name: `auth/${name}` }));
// The protected resource metadata names another resource: the client must not send a token there.
authScenarios.push({ name: "auth/resource-mismatch", refuses: true });
// auth/scope-retry-limit wants the client to stop asking after repeated 403s: it never calls the tool.
const NO_TOOL_CALL = new Set(["auth/scope-retry-limit"]);
/*
 * Not run: auth/cross-app-access-complete-flow (the SEP-990 enterprise-managed extension: an identity
 * provider's ID-JAG exchanged with RFC 8693 token exchange and the JWT-bearer grant). Neither the SDK
 * client nor toolexec implements it; the SDK's own conformance baseline lists it as an expected
 * failure (`auth/enterprise-managed-authorization`).
 */

/**
 * The one WARNING accepted: sse-retry grades a reconnection 200 ms to 1× late (past the server's
 * `retry: 500`, before 1000 ms) as WARNING, "acceptable but may indicate network delays" in its own
 * words — on two shared cores a busy moment can cause that. Too early or very late are FAILUREs,
 * and every other WARNING (no timing measured, no Last-Event-ID sent) fails here.
 */
const isToleratedWarning = (scenario: string, check: Check) =>
  scenario === "sse-retry" && check.id === "client-sse-retry-timing" && check.details?.slightlyLate === true && check.details?.tooEarly === false && check.details?.veryLate === false;

const outputRoot = mkdtempSync(path.join(os.tmpdir(), "toolexec-conformance-results-"));

/** Run one scenario through the conformance CLI; its process group is killed if it outlives the test. */
async function runScenario(scenario: string): Promise<ScenarioRun> {
  const outputDir = path.join(outputRoot, scenario.replace("/", "-"));
  const report = await runConformanceCli(
    [
      "client",
      // The CLI splits this on spaces and runs it through a shell, appending the server URL.
      "--command", `${process.execPath} ${CLIENT}`,
      "--scenario", scenario,
      "--timeout", String(CLIENT_TIMEOUT_MS),
      "--output-dir", outputDir,
    ],
    CLIENT_TIMEOUT_MS + 5_000,
  );
  // `auth/metadata-default` is saved under `auth/`.
  const resultsDir = path.join(outputDir, path.dirname(scenario));
  const runs = existsSync(resultsDir) ? readdirSync(resultsDir) : [];
  if (runs.length !== 1) throw new Error(`Expected one result folder in ${resultsDir}, got ${runs.length}. The CLI said:\n${report}`);
  const folder = path.join(resultsDir, runs[0]!);
  return {
    checks: JSON.parse(readFileSync(path.join(folder, "checks.json"), "utf8")) as Check[],
    clientOutput: `${readFileSync(path.join(folder, "stdout.txt"), "utf8")}${readFileSync(path.join(folder, "stderr.txt"), "utf8")}`,
    report,
  };
}

beforeAll(() => {
  if (!existsSync(path.join(REPOSITORY, "dist", "index.js"))) throw new Error("dist/index.js is missing: run `npm run build` first (npm test does)");
});

afterAll(() => rmSync(outputRoot, { recursive: true, force: true }));

describe("MCP conformance client scenarios through createExecutor", () => {
  it.each(scenarios)("$name: every check passes", async ({ name, required, clientPrints }) => {
    const run = await runScenario(name);
    const context = `\n--- conformance CLI ---\n${run.report}\n--- toolexec client ---\n${run.clientOutput}`;

    expect(run.report, context).not.toMatch(/CLIENT TIMED OUT|CLIENT EXITED WITH ERROR/);
    const graded = run.checks.filter((check) => check.status !== "INFO");
    expect(graded.map((check) => check.id).sort(), context).toEqual([...required].sort());
    for (const check of graded) {
      const verdict = check.status === "WARNING" && isToleratedWarning(name, check) ? "SUCCESS" : check.status;
      expect(verdict, `${check.id}: ${check.errorMessage ?? ""}${context}`).toBe("SUCCESS");
    }
    for (const line of clientPrints) expect(run.clientOutput, context).toContain(line);
  }, CLIENT_TIMEOUT_MS + 10_000);
});

describe("MCP conformance client auth scenarios through createExecutor", () => {
  it.concurrent.each(authScenarios)("$name: every check passes", async ({ name, refuses }) => {
    const run = await runScenario(name);
    const context = `\n--- conformance CLI ---\n${run.report}\n--- toolexec client ---\n${run.clientOutput}`;

    expect(run.report, context).not.toMatch(/CLIENT TIMED OUT/);
    const graded = run.checks.filter((check) => check.status !== "INFO");
    expect(graded.length, context).toBeGreaterThan(0);
    for (const check of graded) expect(check.status, `${check.id}: ${check.errorMessage ?? ""}${context}`).toBe("SUCCESS");
    if (refuses) expect(run.clientOutput, context).not.toContain('"state":"connected"');
    else if (!NO_TOOL_CALL.has(name)) expect(run.clientOutput, context).toContain(AUTH_TOOL_CALLED);
  }, CLIENT_TIMEOUT_MS + 10_000);
});
