/** The definitions of the four tools that manage saved tools, and of a saved tool itself. */
import type { ToolDefinition } from "../../../core/plugin-contract.js";
import { SAVED_TOOL_BUILT_IN_NAMES } from "../../../core/tool-names.js";
import type { SavedTool } from "./saved-tool-file.js";

export const [SAVE_TOOL_NAME, LIST_SAVED_TOOLS_NAME, SHOW_SAVED_TOOL_NAME, DELETE_SAVED_TOOL_NAME] = SAVED_TOOL_BUILT_IN_NAMES;

const nameArgument = { type: "object", properties: { name: { type: "string", description: "The saved tool's name." } }, required: ["name"], additionalProperties: false };

const SAVE_TOOL: ToolDefinition = {
  name: SAVE_TOOL_NAME,
  description:
    "Save a code_execution program as a tool of its own, callable later by name like any other tool (tools.local.<name>(args) in code). " +
    "`code` runs in the same sandbox with `input` = the call's arguments, which are validated against `inputSchema` first; its last expression (or top-level return) is the tool's value. " +
    "Save a program once it has worked. Refused, with what to fix, for a name already in use (pass overwrite: true to replace a saved tool), invalid schemas or code that does not parse.",
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: 'Tool name: 1-128 of A-Z a-z 0-9 _ - . without "__".' },
      description: { type: "string", description: "What the tool does and when to use it, for a model." },
      inputSchema: { type: "object", description: 'JSON Schema of the arguments, with "type": "object".' },
      outputSchema: { type: "object", description: "JSON Schema of the value, when known." },
      code: { type: "string", description: "The JavaScript program; `input` holds the arguments." },
      overwrite: { type: "boolean", description: "Replace a saved tool of that name (default false)." },
    },
    required: ["name", "description", "inputSchema", "code"],
    additionalProperties: false,
  },
  annotations: { title: "Save a program as a tool", destructiveHint: false },
};

const LIST_SAVED_TOOLS: ToolDefinition = {
  name: LIST_SAVED_TOOLS_NAME,
  description: "List the saved tools: name, description, inputSchema, created and modified times.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { title: "List saved tools", readOnlyHint: true },
  parallel: true,
};

const SHOW_SAVED_TOOL: ToolDefinition = {
  name: SHOW_SAVED_TOOL_NAME,
  description: "Show one saved tool's whole definition, with its code.",
  inputSchema: nameArgument,
  annotations: { title: "Show a saved tool", readOnlyHint: true },
  parallel: true,
};

const DELETE_SAVED_TOOL: ToolDefinition = {
  name: DELETE_SAVED_TOOL_NAME,
  description: "Delete a saved tool: it is no longer listed or callable, and its file is removed.",
  inputSchema: nameArgument,
  annotations: { title: "Delete a saved tool", destructiveHint: true, idempotentHint: true },
};

/** The management tools offered: without saving by the model, only listing and showing. */
export function savedToolBuiltIns(allowSaving: boolean): ToolDefinition[] {
  return allowSaving ? [SAVE_TOOL, LIST_SAVED_TOOLS, SHOW_SAVED_TOOL, DELETE_SAVED_TOOL] : [LIST_SAVED_TOOLS, SHOW_SAVED_TOOL];
}

/**
 * A saved tool as the registry lists it: a local tool, run by the code plugin's pool (which bounds
 * it, so it takes no global slot), with the code run's budget plus the pipeline's grace.
 */
export function savedToolDefinition(tool: SavedTool, timeoutMs: number): ToolDefinition {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    timeoutMs,
    parallel: true,
    selfScheduled: true,
  };
}
