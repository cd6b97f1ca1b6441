/** `toolexec keys create|list|revoke` as a user runs them (the built CLI, a real process): shown once, stored as a hash, revocable. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.js";
import { runCli } from "../cli/run-cli.js";

it("creates a key shown once and stored only as its hash, lists it without the key, and revokes it", async () => {
  const project = createTempProject({ tools: { tools: [], profiles: { ops: {} } }, mcp: { mcpServers: {} } });
  const created = await runCli(["keys", "create", "--name", "ci", "--tier", "write", "--scope", "github", "--scope", "notes__*", "--profile", "ops", "--expires", "30d", "--json", "--root", project.root]);
  expect(created.code).toBe(0);
  const { id, key } = JSON.parse(created.stdout) as { id: string; key: string };
  expect(key).toMatch(/^txk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  const folder = path.join(project.root, ".toolexec/identity/api-keys");
  const stored = readdirSync(folder).map((file) => readFileSync(path.join(folder, file), "utf8")).join("\n");
  expect(stored).toContain(id);
  expect(stored).not.toContain(key.slice(22));

  const listed = await runCli(["keys", "list", "--json", "--root", project.root]);
  expect(listed.stdout).not.toContain(key.slice(22));
  expect(JSON.parse(listed.stdout)).toMatchObject({ keys: [{ id, name: "ci", tier: "write", scopes: ["github", "notes__*"], profile: "ops", revoked: null, expires: expect.any(String) }] });

  expect(await runCli(["keys", "revoke", id, "--root", project.root])).toMatchObject({ code: 0, stdout: `Revoked key ${id}\n` });
  expect(JSON.parse((await runCli(["keys", "list", "--json", "--root", project.root])).stdout).keys[0].revoked).toEqual(expect.any(String));
  expect(await runCli(["keys", "revoke", "0000000000000000", "--root", project.root])).toMatchObject({ code: 1, stderr: expect.stringContaining('No API key with id "0000000000000000"') });
  expect(await runCli(["keys", "create", "--name", "x", "--tier", "admin", "--root", project.root])).toMatchObject({ code: 2, stderr: expect.stringContaining("--tier expects read, write or destructive") });
  expect(await runCli(["keys", "create", "--name", "x", "--scope", "a(b)", "--root", project.root])).toMatchObject({ code: 2, stderr: expect.stringContaining("is not a tool pattern") });
}, 60_000);
