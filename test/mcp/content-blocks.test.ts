/**
 * Faithful results: MCP images, audio, resource links and embedded resources reach callers as
 * content blocks, unchanged, beside `value` — from `callTool` (`result.content`) and from code mode
 * (`call_tool`'s envelope, `tools.x.y()`), where binary payloads past a bound stay out of the runtime.
 * Real servers over stdio: server-everything and the media fixture (audio, sizes of our choosing).
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { MAX_CODE_BINARY_CHARS } from "../../src/plugins/code/sandbox-content.js";
import { createTempProject } from "../helpers/temp-project.js";
import { EVERYTHING, FIXTURES, silentLogger } from "./mcp-test-helpers.js";

let executor: Executor;
beforeAll(async () => {
  const project = createTempProject({
    tools: { tools: [] },
    mcp: {
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
        media: { command: process.execPath, args: [path.join(FIXTURES, "media-server.mjs")] },
      },
    },
  });
  executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger, codeExecution: { enabled: true, poolSize: 1 } });
});
afterAll(() => executor.close());

async function success(name: string, args: Record<string, unknown> = {}) {
  const result = await executor.callTool(name, args);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.code} ${result.error.message}`);
  return result;
}

async function run(code: string): Promise<any> {
  const result = await executor.executeCode({ code });
  if (!result.ok) throw new Error(`run failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe("callTool", () => {
  it("passes server-everything's image and resource blocks through as content, beside the text value", async () => {
    const image = await success("everything__get-tiny-image");
    expect(image.value).toBe("Here's the image you requested:\nThe image above is the MCP logo.");
    expect(image.content).toEqual([
      { type: "text", text: "Here's the image you requested:" },
      { type: "image", mimeType: "image/png", data: expect.stringMatching(/^iVBORw0KGgo/) },
      { type: "text", text: "The image above is the MCP logo." },
    ]);

    const links = await success("everything__get-resource-links", { count: 2 });
    const linked = (links.content as Array<Record<string, unknown>>).filter((block) => block.type === "resource_link");
    expect(linked).toHaveLength(2);
    expect(linked[0]).toMatchObject({ type: "resource_link", uri: expect.stringMatching(/^demo:\/\//), name: expect.any(String) });

    const reference = await success("everything__get-resource-reference", { resourceType: "Blob", resourceId: 1 });
    expect((reference.content as unknown[])[1]).toMatchObject({ type: "resource", resource: { uri: expect.any(String), blob: expect.any(String) } });
  });

  it("keeps every block as sent (annotations too); a result without text has its blocks as its value", async () => {
    const all = await success("media__everything-at-once");
    expect(all.value).toBe("Here is all of it:");
    expect((all.content as Array<{ type: string }>).map((block) => block.type)).toEqual(["text", "image", "audio", "resource_link", "resource", "resource"]);
    expect((all.content as unknown[])[1]).toMatchObject({ annotations: { audience: ["user"] } });

    const picture = await success("media__picture");
    expect(picture.content).toEqual([{ type: "image", data: expect.any(String), mimeType: "image/png" }]);
    expect(picture.value).toEqual(picture.content);
    const voice = await success("media__voice");
    expect(voice.value).toEqual([{ type: "audio", data: expect.stringMatching(/^UklGR/), mimeType: "audio/wav" }]);
  });
});

describe("code mode", () => {
  it("gives call_tool's envelope the blocks of results with more than text, and only of those", async () => {
    const value = await run(`
      const image = call_tool("everything", "get-tiny-image", {});
      const echo = call_tool("everything", "echo", { message: "hi" });
      const all = call_tool("media", "everything-at-once", {});
      ({
        image: { value: image.value, types: image.content.map((block) => block.type), png: image.content[1].data.startsWith("iVBORw0KGgo") },
        echo: { value: echo.value, hasContent: "content" in echo },
        all: all.content.map((block) => [block.type, block.mimeType ?? block.resource?.mimeType ?? null]),
      })`);
    expect(value).toEqual({
      image: { value: "Here's the image you requested:\nThe image above is the MCP logo.", types: ["text", "image", "text"], png: true },
      echo: { value: "Echo: hi", hasContent: false },
      all: [["text", null], ["image", "image/png"], ["audio", "audio/wav"], ["resource_link", "audio/wav"], ["resource", "text/plain"], ["resource", "image/png"]],
    });
  });

  it("makes tools.x.y() of an image-only tool resolve to its blocks", async () => {
    expect(await run(`const blocks = await tools.media.picture(); blocks.map((block) => [block.type, block.mimeType, block.data.length > 0])`)).toEqual([["image", "image/png", true]]);
  });

  it("leaves binary payloads past the bound out of the runtime, and says so", async () => {
    const value = await run(`
      const small = call_tool("media", "sized", { chars: ${MAX_CODE_BINARY_CHARS} });
      const big = call_tool("media", "sized", { chars: ${MAX_CODE_BINARY_CHARS + 4} });
      ({ small: [small.content[1].data.length, small.content[2].resource.blob.length], big: big.content, value: big.value })`);
    expect(value.small).toEqual([MAX_CODE_BINARY_CHARS, MAX_CODE_BINARY_CHARS]);
    expect(value.value).toBe(`${MAX_CODE_BINARY_CHARS + 4} characters each`);
    expect(value.big).toMatchInlineSnapshot(`
      [
        {
          "text": "1048580 characters each",
          "type": "text",
        },
        {
          "mimeType": "image/png",
          "omitted": "data: 1048580 characters of base64, over code mode's limit of 1048576 per block",
          "type": "image",
        },
        {
          "omitted": "resource.blob: 1048580 characters of base64, over code mode's limit of 1048576 per block",
          "resource": {
            "mimeType": "application/octet-stream",
            "uri": "media://big",
          },
          "type": "resource",
        },
      ]
    `);
  });
});
