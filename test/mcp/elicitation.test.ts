/**
 * Elicitation: a server asking the user mid-call reaches the host's `onElicitation`, with schema
 * defaults filled in for fields the answer leaves out; without a handler, servers are told the
 * client cannot elicit (server-everything then does not even offer its elicitation tool).
 */
import { describe, expect, it } from "vitest";
import type { ElicitationRequest } from "../../src/mcp.js";
import { EVERYTHING, openProject } from "./mcp-test-helpers.js";

const everything = { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } };

describe("elicitation", () => {
  it("goes to onElicitation, and the answer comes back to the server with defaults applied", async () => {
    const requests: ElicitationRequest[] = [];
    const { executor } = await openProject(everything, {
      onElicitation: async (request) => {
        requests.push(request);
        return { action: "accept", content: { name: "Ada Lovelace", check: true } };
      },
    });
    const result = await executor.callTool("everything__trigger-elicitation-request", {});
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ server: "everything", mode: "form", message: "Please provide inputs for the following fields:", requestedSchema: { type: "object" } });
    expect(requests[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(result).toMatchObject({ ok: true });
    const text = result.ok ? String(result.value) : "";
    expect(text).toContain("Ada Lovelace");
    // Left out of the answer, filled from the schema's defaults.
    expect(text).toContain("It was a dark and stormy night.");
  });

  it("is not offered to servers when the host has no handler", async () => {
    const { executor } = await openProject(everything);
    expect((await executor.listTools()).map((tool) => tool.name)).not.toContain("everything__trigger-elicitation-request");
  });
});
