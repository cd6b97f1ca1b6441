/**
 * Servers added at run time: trusted ones like mcp.json's; untrusted ones (an end user's URL) only
 * to public http(s) addresses, checked when added and again at every connection (DNS rebinding).
 */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { isToolexecError } from "../../src/index.js";
import { forbiddenAddressReason } from "../../src/plugins/mcp/address-policy.js";
import { checkUntrustedUrl, createGuardedFetch, type ResolveAll } from "../../src/plugins/mcp/guarded-fetch.js";
import { nextEvent, openProject, startFixtureServer } from "./mcp-test-helpers.js";

describe("addServer", () => {
  it("adds a trusted server whose tools go live, and removes it", async () => {
    const server = await startFixtureServer("http");
    const { executor } = await openProject({ mcpServers: {} });
    const changed = nextEvent(executor, "tools:changed", ({ tools }) => tools.includes("mine__echo"));
    const added = await executor.addServer("mine", { type: "http", url: server.url }, { trusted: true });
    expect(added).toMatchObject({ ok: true, server: { name: "mine", source: "runtime", state: "connected", connectedTransport: "http" } });
    await changed;
    expect(await executor.callTool("mine__echo", { text: "hi" })).toMatchObject({ ok: true, value: "hi" });

    expect(await executor.addServer("mine", { type: "http", url: server.url }, { trusted: true })).toMatchObject({ ok: false, error: { code: "CONFIG_INVALID", message: 'A server named "mine" already exists; remove it first or choose another name' } });
    expect(await executor.addServer("other", { type: "http", url: server.url, header: {} }, { trusted: true })).toMatchObject({
      ok: false,
      error: { code: "CONFIG_INVALID", message: expect.stringContaining('other.header: Unknown key "header" (did you mean "headers"?)') },
    });

    expect(await executor.removeServer("mine")).toBe(true);
    expect(await executor.removeServer("mine")).toBe(false);
    expect(await executor.callTool("mine__echo", { text: "hi" })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  });

  it.each([
    ["loopback", "http://127.0.0.1:8080/mcp", "a loopback address"],
    ["localhost", "http://localhost:8080/mcp", "a local or internal host name"],
    ["IPv6 loopback", "http://[::1]:8080/mcp", "a loopback address"],
    ["IPv4-mapped IPv6", "http://[::ffff:127.0.0.1]/mcp", "an IPv4-mapped form of a loopback address"],
    ["decimal IPv4", "http://2130706433/mcp", "a loopback address"],
    ["private", "https://10.1.2.3/mcp", "a private address"],
    ["private 192.168", "https://192.168.1.10/mcp", "a private address"],
    ["link-local", "http://169.254.10.10/", "a link-local address"],
    ["AWS metadata", "http://169.254.169.254/latest/meta-data/", "a cloud metadata address"],
    ["AWS IPv6 metadata", "http://[fd00:ec2::254]/", "a cloud metadata address"],
    ["GCP metadata", "http://metadata.google.internal/computeMetadata/v1/", "a cloud metadata host"],
    ["CGNAT", "http://100.64.0.1/mcp", "a carrier-grade NAT (shared) address"],
    ["unique-local IPv6", "http://[fc00::1]/mcp", "a unique-local address"],
    ["unspecified", "http://0.0.0.0:8080/mcp", 'a "this network" address'],
  ])("refuses an untrusted URL to %s", async (_kind, url, reason) => {
    const { executor } = await openProject({ mcpServers: {} });
    const result = await executor.addServer("user", { url });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVER_NOT_ALLOWED", message: expect.stringContaining(`it leads to ${reason}`) } });
    expect(executor.servers()).toEqual([]);
  });

  it("refuses untrusted commands, other schemes and environment variables", async () => {
    const { executor } = await openProject({ mcpServers: {} });
    expect(await executor.addServer("user", { command: "sh", args: ["-c", "id"] })).toMatchObject({ ok: false, error: { code: "SERVER_NOT_ALLOWED", message: 'Refused server "user": untrusted servers must be http(s) URLs, not commands' } });
    expect(await executor.addServer("user", { type: "http", url: "https://example.com/mcp?key=${OPENAI_API_KEY}" })).toMatchObject({ ok: false, error: { code: "SERVER_NOT_ALLOWED", message: 'Refused server "user": variables (${...}) are not expanded in untrusted entries' } });
    expect(await executor.addServer("user", { url: "file:///etc/passwd" })).toMatchObject({ ok: false, error: { code: "CONFIG_INVALID", message: 'Invalid server entry: user.url: Expected an http: or https: URL, got "file:"' } });
    expect(await executor.addServer("a b", { url: "https://example.com/mcp" })).toMatchObject({ ok: false, error: { code: "CONFIG_INVALID" } });
  });
});

describe("untrusted addresses", () => {
  const local: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(local.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it("refuses a name that resolves to a private address, whatever its other addresses", async () => {
    const resolveAll: ResolveAll = async () => [{ address: "93.184.216.34", family: 4 }, { address: "10.0.0.7", family: 4 }];
    const refusal = await checkUntrustedUrl("https://mixed.example/mcp", resolveAll);
    expect(refusal?.code).toBe("SERVER_NOT_ALLOWED");
    expect(refusal?.message).toBe("Refused https://mixed.example: it leads to a private address (mixed.example resolves to 10.0.0.7); untrusted servers must be public http(s) URLs");
    expect(await checkUntrustedUrl("https://public.example/mcp", async () => [{ address: "93.184.216.34", family: 4 }])).toBeUndefined();
  });

  it("checks again when connecting: a name rebound to 127.0.0.1 after the check is refused before any request", async () => {
    let requests = 0;
    const server = http.createServer((_request, response) => {
      requests++;
      response.end("secret");
    });
    local.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    let lookups = 0;
    // First answer public (the check when the server is added), then loopback (DNS rebinding).
    const rebinding: ResolveAll = async () => (lookups++ === 0 ? [{ address: "93.184.216.34", family: 4 }] : [{ address: "127.0.0.1", family: 4 }]);

    expect(await checkUntrustedUrl(`http://rebind.example:${port}/mcp`, rebinding)).toBeUndefined();
    const guarded = createGuardedFetch(rebinding);
    try {
      const error = await guarded.fetch(`http://rebind.example:${port}/mcp`, { method: "POST", body: "{}" }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      const refusal = isToolexecError(error) ? error : (error as { cause?: unknown })?.cause;
      expect(isToolexecError(refusal) && refusal.code).toBe("SERVER_NOT_ALLOWED");
      expect((refusal as Error).message).toContain("rebind.example now resolves to 127.0.0.1");
      expect(requests).toBe(0);
    } finally {
      guarded.close();
    }
  });

  it("knows the address forms that hide a forbidden IPv4 address", () => {
    expect(forbiddenAddressReason("64:ff9b::a00:1")).toBe("a NAT64 form of a private address");
    expect(forbiddenAddressReason("2002:c0a8:101::1")).toBe("a 6to4 form of a private address");
    expect(forbiddenAddressReason("::127.0.0.1")).toBe("an IPv4-compatible form of a loopback address");
    expect(forbiddenAddressReason("fe80::1%eth0")).toBe("a link-local address");
    expect(forbiddenAddressReason("::ffff:8.8.8.8")).toBeUndefined();
    expect(forbiddenAddressReason("2606:4700::1111")).toBeUndefined();
    expect(forbiddenAddressReason("8.8.8.8")).toBeUndefined();
  });
});
