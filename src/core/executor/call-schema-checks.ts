/**
 * A call's arguments and result against the tool's JSON Schemas. A schema ajv cannot use was
 * found at registration (or at its first compile) and checks nothing (`registered-tool.ts`).
 */
import type { PluginResult, ToolErrorInfo } from "../plugin-contract.js";
import { formatSchemaProblems } from "../schema/schema-validator.js";
import { toolError } from "../tool-result.js";
import type { RegisteredTool } from "./tool-registry.js";

/** The arguments' fault as a result, or undefined when they match the inputSchema. */
export function checkInput(registered: RegisteredTool, name: string, callArguments: Record<string, unknown>): PluginResult | undefined {
  const problems = registered.inputValidator()(callArguments);
  if (problems.length > 0) return toolError("INVALID_INPUT", `Invalid arguments for "${name}": ${formatSchemaProblems(problems)}`, { problems });
  return undefined;
}

/** The plugin's answer, checked against the outputSchema; a timeout names the call's timeoutMs. */
export function checkOutput(registered: RegisteredTool, name: string, outcome: PluginResult, timeoutMs: number): PluginResult {
  if (outcome.ok) {
    const validator = registered.outputValidator();
    if (validator === undefined) return outcome;
    const problems = validator(outcome.value);
    if (problems.length === 0) return outcome;
    const message = `The result of "${name}" does not match its outputSchema: ${formatSchemaProblems(problems).replace(/\barguments\b/g, "result")}`;
    return toolError("INVALID_OUTPUT", message, { problems });
  }
  if (outcome.error.code === "TIMEOUT") return { ok: false, error: { ...outcome.error, details: { timeoutMs, ...outcome.error.details } } satisfies ToolErrorInfo };
  return outcome;
}
