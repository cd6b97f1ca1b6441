/** The HTTP management API on a real served port: key, routes, ETag/If-Match, audit, hand edits, 200 concurrent writes. */
import { readFileSync, watch, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { loadToolsConfig } from "../../src/core/config/load-tools-config.js";
import { createExecutor, type Executor } from "../../src/index.js";
import { serveHttp, type HttpServing, type RegistryAuditEntry } from "../../src/serve.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const API_KEY = "test-key-7f3a";
const GREET = "#!/bin/sh\nprintf '{\"hello\": \"world\"}'\n";
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

interface Served {
  project: TempProject;
  executor: Executor;
  serving: HttpServing;
  audit: RegistryAuditEntry[];
  /** A request to the API with the key (unless `key` says otherwise). */
  api(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
}

/** `onChange` runs as each change's audit line is written: after the write, before the response. */
async function serve(tools: object | string = { tools: [] }, apiKey: string | null = API_KEY, onChange?: () => void): Promise<Served> {
  const project = createTempProject({ tools });
  project.write("tools/greet.sh", GREET);
  const executor = await createExecutor({ root: project.root, logDir: false, logger: quiet, watch: false });
  const audit: RegistryAuditEntry[] = [];
  const onAudit = (entry: RegistryAuditEntry) => {
    audit.push(entry);
    onChange?.();
  };
  const serving = await serveHttp(executor, { ...(apiKey === null ? {} : { apiKey }), onAudit });
  cleanup.push(async () => {
    await serving.close();
    await executor.close();
  });
  const base = new URL(serving.url).origin;
  return {
    project,
    executor,
    serving,
    audit,
    api(path, init = {}) {
      const { key = API_KEY, headers, ...rest } = init;
      return fetch(`${base}${path}`, {
        ...rest,
        headers: { "content-type": "application/json", ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(headers as Record<string, string>) },
        signal: AbortSignal.timeout(30_000),
      });
    },
  };
}

const json = (body: unknown) => JSON.stringify(body);

describe("management API", () => {
  it("requires the API key on every call, and exists only when one is given", async () => {
    const served = await serve();
    for (const key of [null, "wrong", `${API_KEY}x`, ""]) {
      const response = await served.api("/api/tools", { key });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect(await response.json()).toEqual({ ok: false, error: { code: "AUTH_FAILED", message: "Missing or wrong API key: send Authorization: Bearer <key>" } });
    }
    const deleted = await served.api("/api/tools/greet", { method: "DELETE", key: null });
    expect(deleted.status).toBe(401);
    expect((await served.api("/api/tools")).status).toBe(200);
    const off = await serve({ tools: [] }, null);
    expect((await off.api("/api/tools")).status).toBe(404);
    // An empty key would match a request that sends none: refused before anything listens.
    await expect(serveHttp(served.executor, { apiKey: "" })).rejects.toThrowErrorMatchingInlineSnapshot(`[ToolexecError: Expected apiKey to be a non-empty string, got ""]`);
  });

  it("creates a tool with its script, live on the response; gets, patches, replaces and deletes it with ETags", async () => {
    const served = await serve();
    const created = await served.api("/api/tools", { method: "POST", body: json({ entry: toolEntry("hello", "shell", "hello.sh"), script: GREET }) });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe("/api/tools/hello");
    const createdBody = (await created.json()) as { tool: { etag: string }; etag: string };
    expect(created.headers.get("etag")).toBe(`"${createdBody.tool.etag}"`);
    expect(await served.executor.callTool("hello", {})).toMatchObject({ ok: true, value: { hello: "world" } });

    const list = await served.api("/api/tools");
    const listBody = (await list.json()) as { etag: string; tools: Array<{ name: string }> };
    expect(list.headers.get("etag")).toBe(`"${listBody.etag}"`);
    expect(listBody.tools.map((tool) => tool.name)).toEqual(["hello"]);

    const got = await served.api("/api/tools/hello");
    const tag = got.headers.get("etag")!;
    expect(await got.json()).toMatchObject({ name: "hello", entry: { name: "hello", script: "hello.sh" } });

    const patched = await served.api("/api/tools/hello", { method: "PATCH", headers: { "if-match": tag }, body: json({ description: "Says hello" }) });
    expect(patched.status).toBe(200);
    expect((await served.executor.listTools()).find((tool) => tool.name === "hello")?.description).toBe("Says hello");
    const stale = await served.api("/api/tools/hello", { method: "PATCH", headers: { "if-match": tag }, body: json({ description: "Lost update" }) });
    expect(stale.status).toBe(412);
    expect(await stale.json()).toMatchObject({ ok: false, error: { code: "CONFLICT", message: expect.stringContaining('The tool "hello" changed since it was read') } });

    const replaced = await served.api("/api/tools/hello", { method: "PUT", headers: { "if-match": patched.headers.get("etag")! }, body: json({ entry: toolEntry("hello", "shell", "hello.sh", { description: "Replaced" }) }) });
    expect(replaced.status).toBe(200);
    const removed = await served.api("/api/tools/hello", { method: "DELETE", headers: { "if-match": replaced.headers.get("etag")! } });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toMatchObject({ deleted: "hello" });
    expect((await served.api("/api/tools/hello")).status).toBe(404);
    expect((await served.executor.callTool("hello", {})).ok).toBe(false);

    expect(served.audit.map((line) => [line.action, line.tool])).toEqual([["create", "hello"], ["update", "hello"], ["replace", "hello"], ["remove", "hello"]]);
    expect(served.audit[0]).toMatchObject({ actor: { key: expect.stringMatching(/^[0-9a-f]{12}$/), address: "127.0.0.1" }, script: "tools/hello.sh", entryAfter: createdBody.tool.etag });
    expect(served.audit[1]!.before).toBe(served.audit[0]!.after);
    expect(JSON.stringify(served.audit)).not.toContain(API_KEY);
  });

  it("answers CONFLICT to a write after a hand edit, and the hand edit survives", async () => {
    const served = await serve({ tools: [toolEntry("greet", "shell", "greet.sh")] });
    const read = await served.api("/api/tools/greet");
    const tag = read.headers.get("etag")!;
    const handEdited = `${JSON.stringify({ tools: [toolEntry("greet", "shell", "greet.sh", { description: "Edited by hand" })] }, null, 4)}\n`;
    writeFileSync(served.project.path("tools.json"), handEdited);
    const put = await served.api("/api/tools/greet", { method: "PUT", headers: { "if-match": tag }, body: json({ entry: toolEntry("greet", "shell", "greet.sh", { description: "From the API" }) }) });
    expect(put.status).toBe(412);
    expect(((await put.json()) as { error: { code: string } }).error.code).toBe("CONFLICT");
    expect(readFileSync(served.project.path("tools.json"), "utf8")).toBe(handEdited);
    expect(served.audit).toEqual([]);
  });

  it("keeps the served port's rules (403 for a foreign Origin, 413 past the body limit) and appends audit lines to the project by default", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const executor = await createExecutor({ root: project.root, logDir: false, logger: quiet, watch: false });
    const serving = await serveHttp(executor, { apiKey: API_KEY, maxBodyBytes: 2048 });
    cleanup.push(async () => {
      await serving.close();
      await executor.close();
    });
    const url = `${new URL(serving.url).origin}/api/tools`;
    const headers = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
    const foreign = await fetch(url, { headers: { ...headers, origin: "http://evil.example" } });
    expect([foreign.status, await foreign.json()]).toEqual([403, { ok: false, error: { code: "INVALID_INPUT", message: 'Origin "http://evil.example" is not allowed' } }]);
    const huge = await fetch(url, { method: "POST", headers, body: json({ entry: toolEntry("big", "shell", "big.sh", { description: "x".repeat(4096) }) }) });
    expect([huge.status, await huge.json()]).toEqual([413, { ok: false, error: { code: "INVALID_INPUT", message: "Payload Too Large: Request body must not exceed 2048 bytes" } }]);

    const created = await fetch(url, { method: "POST", headers: { ...headers, "user-agent": "audit-test/1" }, body: json({ entry: toolEntry("hello", "shell", "hello.sh"), script: GREET }) });
    expect(created.status).toBe(201);
    const lines = readFileSync(project.path(".toolexec/registry-audit.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(lines).toEqual([
      {
        time: expect.any(String),
        actor: { key: expect.stringMatching(/^[0-9a-f]{12}$/), address: "127.0.0.1", userAgent: "audit-test/1" },
        action: "create",
        tool: "hello",
        before: expect.any(String),
        after: ((await created.json()) as { etag: string }).etag,
        entryAfter: created.headers.get("etag")!.slice(1, -1),
        script: "tools/hello.sh",
      },
    ]);
    expect(readFileSync(project.path("tools.json"), "utf8")).not.toContain('"big"');
  });

  it("says precisely what is wrong with a request", async () => {
    const served = await serve({ tools: [toolEntry("greet", "shell", "greet.sh")] });
    const cases: Array<[string, RequestInit, number, string, RegExp]> = [
      ["/api/tools", { method: "POST", body: json({ entry: { ...toolEntry("bad", "shell", "x.sh"), timeoutMs: -1 } }) }, 400, "INVALID_INPUT", /tools\.json:\d+:\d+ tools\[1\]\.timeoutMs: Expected a number greater than 0/],
      ["/api/tools", { method: "POST", body: json(toolEntry("bare", "shell", "x.sh")) }, 400, "INVALID_INPUT", /Expected a JSON object \{ "entry"/],
      ["/api/tools", { method: "POST", body: "{ not json" }, 400, "INVALID_INPUT", /not valid JSON/],
      ["/api/tools", { method: "POST", body: json({ entry: toolEntry("greet", "shell", "greet.sh") }) }, 409, "CONFLICT", /already exists/],
      ["/api/tools", { method: "POST", body: json({ entry: toolEntry("esc", "shell", "../x.sh"), script: "echo" }) }, 400, "INVALID_INPUT", /may not escape the tools folder/],
      ["/api/tools/missing", { method: "PATCH", body: json({ description: "x" }) }, 404, "TOOL_NOT_FOUND", /No tool named "missing"/],
      ["/api/tools/greet", { method: "POST", body: json({}) }, 405, "INVALID_INPUT", /allowed: GET, PUT, PATCH, DELETE/],
      ["/api/tools/a/b", { method: "GET" }, 404, "TOOL_NOT_FOUND", /No such route/],
      ["/api/tools/greet", { method: "PATCH", body: json({ name: "renamed" }) }, 400, "INVALID_INPUT", /may not change "name"/],
    ];
    for (const [path, init, status, code, message] of cases) {
      const response = await served.api(path, init);
      const body = (await response.json()) as { ok: boolean; error: { code: string; message: string } };
      expect([path, init.method, response.status, body.error.code]).toEqual([path, init.method, status, code]);
      expect(body.error.message).toMatch(message);
    }
    expect(JSON.parse(readFileSync(served.project.path("tools.json"), "utf8")).tools.map((tool: { name: string }) => tool.name)).toEqual(["greet"]);
  });

  it("serves 200 concurrent creates, patches and deletes: every acknowledged change is in the final file, valid after every write", async () => {
    const seeded = [...Array(50).keys()].flatMap((index) => [toolEntry(`p${index}`, "shell", "greet.sh"), toolEntry(`d${index}`, "shell", "greet.sh")]);
    // The file is read back and checked with the load-time loader right after every acknowledged
    // write (its audit line) and whenever the folder's watcher sees it change.
    const checks: Array<Promise<string>> = [];
    const check = () => {
      const bytes = readFileSync(served.project.path("tools.json"));
      checks.push(loadToolsConfig(served.project.root, "tools.json", bytes).then((result) => result.status));
    };
    const served = await serve(`${JSON.stringify({ tools: seeded }, null, 2)}\n`, API_KEY, check);
    const watcher = watch(served.project.root, (_event, file) => {
      if (file === "tools.json") check();
    });
    cleanup.push(async () => watcher.close());

    const requests = [
      ...[...Array(100).keys()].map((index) => served.api("/api/tools", { method: "POST", body: json({ entry: toolEntry(`c${index}`, "shell", "greet.sh") }) })),
      ...[...Array(50).keys()].map((index) => served.api(`/api/tools/p${index}`, { method: "PATCH", body: json({ description: `patched ${index}` }) })),
      ...[...Array(50).keys()].map((index) => served.api(`/api/tools/d${index}`, { method: "DELETE" })),
    ];
    const statuses = (await Promise.all(requests)).map((response) => response.status);
    expect(statuses.filter((status) => status >= 300)).toEqual([]);

    const final = JSON.parse(readFileSync(served.project.path("tools.json"), "utf8")) as { tools: Array<{ name: string; description: string }> };
    const byName = new Map(final.tools.map((tool) => [tool.name, tool]));
    for (let index = 0; index < 100; index++) expect(byName.has(`c${index}`)).toBe(true);
    for (let index = 0; index < 50; index++) {
      expect(byName.get(`p${index}`)?.description).toBe(`patched ${index}`);
      expect(byName.has(`d${index}`)).toBe(false);
    }
    expect(final.tools).toHaveLength(150);
    expect(served.audit).toHaveLength(200);
    expect((await served.executor.listTools()).filter((tool) => /^[cpd]\d+$/.test(tool.name))).toHaveLength(150);
    const results = await Promise.all(checks);
    expect(results.length).toBeGreaterThanOrEqual(200);
    expect(results.filter((status) => status !== "ok")).toEqual([]);
  }, 120_000);
});
