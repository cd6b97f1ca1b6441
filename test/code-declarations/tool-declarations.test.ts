/** generateToolDeclarations: the text a model reads, pinned for the bundled tools, and its size bounds. */
import { describe, expect, it } from "vitest";
import { createNamedTypes } from "../../src/plugins/code/declarations/named-types.js";
import { SANDBOX_API_DECLARATIONS } from "../../src/plugins/code/declarations/sandbox-api-declarations.js";
import { DEFAULT_MAX_TOOL_DECLARATION_LENGTH, generateToolDeclarations, renderToolMember } from "../../src/plugins/code/declarations/tool-declarations.js";
import { bundledTools, humanTool, tool } from "./code-declarations-fixtures.js";

/** The part after the fixed sandbox API: what depends on the tools. */
const toolPart = (text: string) => text.slice(SANDBOX_API_DECLARATIONS.length);

/** A schema with `count` documented properties, each an object nested `depth` levels deep. */
function wideSchema(count: number, depth: number): Record<string, unknown> {
  let leaf: Record<string, unknown> = { type: "string", description: "A leaf value with a description long enough to matter." };
  for (let level = 0; level < depth; level++) leaf = { type: "object", description: `Level ${level}.`, properties: { inner: leaf, other: { type: "number" } } };
  return { type: "object", properties: Object.fromEntries(Array.from({ length: count }, (_, index) => [`field${index}`, leaf])) };
}

describe("generateToolDeclarations", () => {
  it("declares the bundled tools and request_human_input with their doc comments and output types", async () => {
    const text = generateToolDeclarations([...bundledTools(), await humanTool()]);
    expect(text.startsWith(SANDBOX_API_DECLARATIONS)).toBe(true);
    expect(toolPart(text)).toMatchInlineSnapshot(`
      "
      declare const tools: {
        local: {
          /**
           * Summarize a CSV file in the project: row count, and for each column its type, missing values, min/max/mean/median/sum for numbers or the most frequent values for text. Use it before reasoning about a CSV's contents.
           *
           * Hints: read-only, idempotent.
           */
          csv_summary(args: {
            /** CSV file path, relative to the project root. Minimum length 1. */
            path: string;
            /** Only these columns (default: all). */
            columns?: string[];
            /** Field delimiter (default ','). Minimum length 1, maximum length 1. */
            delimiter?: string;
            /** Read at most this many data rows. Integer, minimum 1. */
            maxRows?: number;
          }): Promise<{
            path: string;
            /** Integer. */
            rows: number;
            columns: {
              name: string;
              type: "number" | "text";
              /** Integer. */
              count: number;
              /** Integer. */
              missing: number;
            }[];
          }>;
          /**
           * Size in bytes, line count, word count and last modification time (UTC) of a file inside the project.
           *
           * Hints: read-only, idempotent.
           */
          file_stats(args: {
            /** File path, relative to the project root. Minimum length 1. */
            path: string;
          }): Promise<{
            path: string;
            /** Integer. */
            bytes: number;
            /** Integer. */
            lines: number;
            /** Integer. */
            words: number;
            modified: string;
          }>;
          /**
           * Convert a number between units of the same kind: length (mm cm m km in ft yd mi), mass (mg g kg t oz lb), volume (ml l m3 tsp tbsp cup gal), time (ms s min h d wk), data size (B KB MB GB TB KiB MiB GiB TiB) or temperature (C F K).
           *
           * Hints: read-only, idempotent.
           */
          unit_convert(args: {
            /** The quantity to convert. */
            value: number;
            from: "mm" | "cm" | "m" | "km" | "in" | "ft" | "yd" | "mi" | "mg" | "g" | "kg" | "t" | "oz" | "lb" | "ml" | "l" | "m3" | "tsp" | "tbsp" | "cup" | "gal" | "ms" | "s" | "min" | "h" | "d" | "wk" | "B" | "KB" | "MB" | "GB" | "TB" | "KiB" | "MiB" | "GiB" | "TiB" | "C" | "F" | "K";
            to: "mm" | "cm" | "m" | "km" | "in" | "ft" | "yd" | "mi" | "mg" | "g" | "kg" | "t" | "oz" | "lb" | "ml" | "l" | "m3" | "tsp" | "tbsp" | "cup" | "gal" | "ms" | "s" | "min" | "h" | "d" | "wk" | "B" | "KB" | "MB" | "GB" | "TB" | "KiB" | "MiB" | "GiB" | "TiB" | "C" | "F" | "K";
            /** Decimal places (default 6). Integer, minimum 0, maximum 12. */
            precision?: number;
          }): Promise<{ value: number; unit: string; category: string; text: string }>;
        };
        human: {
          /**
           * Ask a person a question and wait for the answer. Use it when you need a decision, a confirmation or information only a person has; offer \`options\` when the answer should be one of a few choices.
           *
           * Hints: read-only, reaches outside systems.
           */
          request_human_input(args: {
            /** The question, complete enough to answer without context. Minimum length 1. */
            question: string;
            /** Allowed answers. At least 1 item, unique items, each item: minimum length 1. */
            options?: string[];
            /** How long to wait, in ms (default 300000). Integer, minimum 1, maximum 2147483647. */
            timeoutMs?: number;
          }): Promise<string>;
        };
      };
      "
    `);
  });

  it("declares a tool without an output schema as Promise<unknown>, with optional args when nothing is required", () => {
    expect(toolPart(generateToolDeclarations([tool("github__list_repos", { type: "object", properties: { owner: { type: "string" } } })]))).toMatchInlineSnapshot(`
      "
      declare const tools: {
        github: {
          /** The github__list_repos tool. */
          list_repos(args?: { owner?: string }): Promise<unknown>;
        };
      };
      "
    `);
  });

  it("leaves out excluded tools and code_execution, and says so when nothing is left", () => {
    const text = generateToolDeclarations([...bundledTools(), tool("code_execution", { type: "object" })], { exclude: ["csv_summary", "file_stats", "unit_convert"] });
    expect(toolPart(text)).toMatchInlineSnapshot(`
      "
      /** No tools are available to code. */
      declare const tools: {};
      "
    `);
  });

  it("drops property comments, then depth, then types, to stay within the length bound", () => {
    const render = (schema: Record<string, unknown>) => renderToolMember({ name: "big", server: "local", tool: "big", definition: tool("big", schema) }, createNamedTypes());
    const documented = render(wideSchema(4, 2));
    expect(documented).toContain("/** A leaf value");

    const withoutComments = render(wideSchema(40, 2));
    expect(withoutComments).not.toContain("/** A leaf value");
    expect(withoutComments).toContain("inner?: { inner?: string; other?: number }");
    expect(withoutComments.length).toBeLessThanOrEqual(DEFAULT_MAX_TOOL_DECLARATION_LENGTH);

    const shallow = render(wideSchema(60, 6));
    expect(shallow).toContain("inner?: { inner?: { inner?: unknown; other?: unknown }; other?: number }");
    expect(shallow.length).toBeLessThanOrEqual(DEFAULT_MAX_TOOL_DECLARATION_LENGTH);

    const shallowest = render(wideSchema(100, 6));
    expect(shallowest).toContain("field0?: { inner?: unknown; other?: unknown };");
    expect(shallowest.length).toBeLessThanOrEqual(DEFAULT_MAX_TOOL_DECLARATION_LENGTH);

    expect(render(wideSchema(2_000, 1))).toMatchInlineSnapshot(`
      "/**
       * The big tool.
       *
       * Types omitted: the schemas are too large to show here.
       */
      big(args?: { [key: string]: unknown }): Promise<unknown>;"
    `);
  });

  it("rolls back the named types of a discarded attempt, so a retry does not number them again", () => {
    const namedTypes = createNamedTypes();
    // Too long with comments, short enough without: the first attempt's `Node` must not become `Node2`.
    const wide = wideSchema(30, 1);
    const recursive = {
      ...wide,
      properties: { ...(wide.properties as object), node: { $ref: "#/$defs/node" } },
      $defs: { node: { type: "array", items: { $ref: "#/$defs/node" } } },
    };
    const member = renderToolMember({ name: "big", server: "local", tool: "big", definition: tool("big", recursive) }, namedTypes, 2_000);
    expect(member).toContain("node?: ToolSchemas.Node;");
    expect(namedTypes.render()).toMatchInlineSnapshot(`
      "/** Types that refer to themselves, named so that they can. */
      declare namespace ToolSchemas {
        export type Node = ToolSchemas.Node[];
      }
      "
    `);
  });

  it("rejects unknown options and wrong types, naming each", () => {
    expect(() => generateToolDeclarations([], { exclude: "csv_summary", extra: 1 } as never)).toThrowErrorMatchingInlineSnapshot(`[ToolexecError: Invalid tool declaration options: Unknown option "extra" at options; expected one of exclude; Expected a list of tool names, got "csv_summary" at options.exclude]`);
  });
});
