/**
 * The sandbox's `tools` namespace, made in the runtime for each run: a run makes the wrappers of
 * the servers it touches only (a catalog of hundreds of tools cost every run, even `1 + 1`, about
 * 2 µs a tool), and the object behaves exactly as one made filled: keys, descriptors, `in`,
 * identity, frozen-ness and the TypeError naming the closest tool.
 */
import { describe, expect, it } from "vitest";
import { createToolNamespace } from "../../src/plugins/code/runtime/tool-namespace.mjs";

type Namespace = Record<string, Record<string, (args?: unknown) => Promise<unknown>>>;

function namespaceOf(catalog: Array<[string, string]>) {
  const wrapped: string[] = [];
  const tools = createToolNamespace(catalog, (server: string, tool: string) => {
    wrapped.push(`${server}.${tool}`);
    const wrapper = async () => `${server}.${tool}`;
    Object.defineProperty(wrapper, "name", { value: tool });
    return wrapper;
  }) as Namespace;
  return { tools, wrapped };
}

const CATALOG: Array<[string, string]> = [
  ["docs", "search"],
  ["docs", "get-page"],
  ["math", "add"],
  ["math", "get-sum"],
];

describe("the tools namespace", () => {
  it("makes no wrapper for a run that does not touch it, and only the touched server's for one that does", async () => {
    const untouched = namespaceOf(CATALOG);
    expect(untouched.wrapped).toEqual([]);
    const { tools, wrapped } = namespaceOf(CATALOG);
    expect(await tools.math!.add!()).toBe("math.add");
    expect(wrapped).toEqual(["math.add", "math.get-sum"]);
    expect(tools.math!.add).toBe(tools.math!.add);
  });

  it("reads as a namespace made filled: keys, descriptors, `in`, read-only wrappers and the closest-name error", () => {
    const { tools } = namespaceOf(CATALOG);
    expect(Object.keys(tools)).toEqual(["docs", "math"]);
    expect("docs" in tools).toBe(true);
    expect(Object.getOwnPropertyDescriptor(tools.docs, "get-page")).toMatchObject({ enumerable: true, writable: false, configurable: false });
    expect(Object.keys(tools.docs!)).toEqual(["search", "get-page"]);
    expect(tools.docs!["get-page"]!.name).toBe("get-page");
    expect(() => {
      "use strict";
      (tools as Record<string, unknown>).docs = {};
    }).toThrow(TypeError);
    expect(Reflect.deleteProperty(tools, "docs")).toBe(false);
    expect(() => tools.math!.get_sum).toThrow('tools.math has no tool "get_sum"; did you mean tools.math["get-sum"]?');
    expect(() => tools.maths).toThrow('tools has no server "maths"; did you mean tools.math?');
    expect(JSON.stringify(Object.keys(namespaceOf(CATALOG).tools.docs!))).toBe('["search","get-page"]');
  });

  it("groups a catalog once, and a new catalog's names replace the old", () => {
    const first = namespaceOf(CATALOG).tools;
    const second = namespaceOf([["other", "echo"]]).tools;
    expect(Object.keys(first)).toEqual(["docs", "math"]);
    expect(Object.keys(second)).toEqual(["other"]);
  });
});
