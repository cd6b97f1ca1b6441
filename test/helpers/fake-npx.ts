/**
 * A package runner that "downloads" until the test says so: a script named `npx`, first on the
 * server's PATH, that waits for a signal file, then runs the stdio fixture server (as `npx -y` runs a
 * package once it is fetched). No registry, no network.
 */
import { chmodSync } from "node:fs";
import path from "node:path";
import { FIXTURES } from "../mcp/mcp-test-helpers.js";
import { createTempProject, type TempProject } from "./temp-project.js";

/** A project whose only server is started through the fake `npx`; `signal` ends its "download". */
export function projectWithFakeNpx(extra: Record<string, unknown> = {}): { project: TempProject; signal: string } {
  const project = createTempProject({ tools: { tools: [] } });
  const signal = project.path("download-done");
  const runner = project.write(
    "bin/npx",
    ["#!/usr/bin/env bash", 'while [ ! -e "$FAKE_NPX_SIGNAL" ]; do sleep 0.05; done', `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(FIXTURES, "stdio-server.mjs"))}`, ""].join("\n"),
  );
  chmodSync(runner, 0o755);
  const env = { FAKE_NPX_SIGNAL: signal, PATH: `${path.dirname(runner)}${path.delimiter}${process.env.PATH ?? ""}` };
  project.write("mcp.json", { mcpServers: { fetcher: { command: "npx", args: ["-y", "@example/fetcher-mcp"], env, ...extra } } });
  return { project, signal };
}
