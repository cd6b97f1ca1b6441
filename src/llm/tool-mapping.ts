/**
 * What a provider's tool list needs to remember for the calls that come back: which registry tool a
 * provider name stands for, and which tools were sent strict (their arguments lose the nulls strict
 * mode added). Every `to*Tools` function returns one with the tools.
 */
import type { JsonSchema, ToolInfo } from "../index.js";
import { removeAddedNulls } from "./restore-arguments.js";
import { createToolNameMap, type ProviderName, type ToolNameMap } from "./tool-name-map.js";

export interface ToolMapping extends ToolNameMap {
  /** The arguments a model sent, as the registry tool expects them. */
  restoreArguments(name: string, args: unknown): unknown;
}

/** The tools in a provider's format, with the mapping `run*ToolCalls` takes. */
export interface ProviderTools<Tool> {
  tools: Tool[];
  mapping: ToolMapping;
}

/** A mapping for `tools`; `strictSchemas` holds the original input schemas of tools sent strict. */
export function createToolMapping(tools: readonly ToolInfo[], provider: ProviderName, strictSchemas: ReadonlyMap<string, JsonSchema> = new Map()): ToolMapping {
  const names = createToolNameMap(
    tools.map((tool) => tool.name),
    provider,
  );
  return {
    toProvider: names.toProvider,
    fromProvider: names.fromProvider,
    restoreArguments(name, args) {
      const schema = strictSchemas.get(name);
      return schema === undefined ? args : removeAddedNulls(args, schema);
    },
  };
}
