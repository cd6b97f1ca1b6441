/**
 * A call's arguments and result against the tool's JSON Schemas. A schema that passed its
 * meta-schema check but cannot be compiled makes the call fail (`PLUGIN_FAILED`), never the host.
 */
import type { PluginResult, ToolErrorInfo } from "../plugin-contract.js";
import { formatSchemaProblems, type CompiledValidator } from "../schema/schema-validator.js";
import { toolError } from "../tool-result.js";
import type { RegisteredTool } from "./tool-registry.js";

/** A validator, or the reason it could not be compiled (the schema passed its meta-schema check). */
function validatorOf(get: () => CompiledValidator | undefined): CompiledValidator | undefined | { failure: string } {
  try {
    return get();
  } catch (error) {
    return { failure: (error as Error).message };
  }
}

/** The arguments' fault as a result, or undefined when they match the inputSchema. */
export function checkInput(registered: RegisteredTool, name: string, callArguments: Record<string, unknown>): PluginResult | undefined {
  const validator = validatorOf(registered.inputValidator);
  if (typeof validator !== "function") return toolError("PLUGIN_FAILED", `The inputSchema of "${name}" cannot be compiled: ${validator?.failure}`);
  const problems = validator(callArguments);
  if (problems.length > 0) return toolError("INVALID_INPUT", `Invalid arguments for "${name}": ${formatSchemaProblems(problems)}`, { problems });
  return undefined;
}

/** The plugin's answer, checked against the outputSchema; a timeout names the call's timeoutMs. */
export function checkOutput(registered: RegisteredTool, name: string, outcome: PluginResult, timeoutMs: number): PluginResult {
  if (outcome.ok) {
    const validator = validatorOf(registered.outputValidator);
    if (validator === undefined) return outcome;
    if (typeof validator !== "function") return toolError("PLUGIN_FAILED", `The outputSchema of "${name}" cannot be compiled: ${validator.failure}`);
    const problems = validator(outcome.value);
    if (problems.length === 0) return outcome;
    const message = `The result of "${name}" does not match its outputSchema: ${formatSchemaProblems(problems).replace(/\barguments\b/g, "result")}`;
    return toolError("INVALID_OUTPUT", message, { problems });
  }
  if (outcome.error.code === "TIMEOUT") return { ok: false, error: { ...outcome.error, details: { timeoutMs, ...outcome.error.details } } satisfies ToolErrorInfo };
  return outcome;
}
