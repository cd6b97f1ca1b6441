/**
 * The section the code plugin declares: tools.json's `codeExecution`, with the host's
 * `codeExecution` option over it key by key; the plugin runs only when the result is enabled.
 */
import type { ToolsKeySection } from "../../../core/plugin-config.js";
import { codeExecutionConfigSchema, timeoutCeilingProblem, type CodeExecutionConfig } from "./code-execution-config-schema.js";
import { resolveCodeExecutionOptions, type ResolvedCodeExecutionOptions } from "./code-execution-options.js";

/**
 * @example
 * codeConfigSection({ enabled: true }); // tools.json's codeExecution, enabled by the host whatever the file says
 */
export function codeConfigSection(fromOptions: CodeExecutionConfig | undefined): ToolsKeySection<CodeExecutionConfig, ResolvedCodeExecutionOptions> {
  return {
    key: "codeExecution",
    schema: codeExecutionConfigSchema,
    resolve(written, context) {
      // The one check its schema cannot make, on the file's object alone (the option is checked as an option).
      const problem = written === undefined ? undefined : timeoutCeilingProblem(written);
      if (problem !== undefined) context.report(["maxTimeoutMs"], problem);
      return resolveCodeExecutionOptions(written, fromOptions);
    },
    enabled: (settings) => settings.enabled,
  };
}
