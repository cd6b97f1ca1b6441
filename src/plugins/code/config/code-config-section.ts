/**
 * The section the code plugin declares: tools.json's `codeExecution`, with the host's
 * `codeExecution` option over it key by key; the plugin runs only when the result is enabled.
 */
import { withLazySchema } from "../../../core/config/lazy-section-schema.js";
import type { ToolsKeySection } from "../../../core/plugin-config.js";
import type { CodeExecutionConfig } from "./code-execution-config-schema.js";
import { timeoutCeilingProblem } from "./code-execution-limits.js";
import { resolveCodeExecutionOptions, type ResolvedCodeExecutionOptions } from "./code-execution-options.js";
import { isWellFormedCodeExecution } from "./well-formed-code-execution.js";

/**
 * @example
 * codeConfigSection({ enabled: true }); // tools.json's codeExecution, enabled by the host whatever the file says
 */
export function codeConfigSection(fromOptions: CodeExecutionConfig | undefined): ToolsKeySection<CodeExecutionConfig, ResolvedCodeExecutionOptions> {
  const lazy = { isWellFormed: isWellFormedCodeExecution, load: async () => (await import("./code-execution-config-schema.js")).codeExecutionConfigSchema };
  return withLazySchema<ToolsKeySection<CodeExecutionConfig, ResolvedCodeExecutionOptions>>({
    key: "codeExecution",
    resolve(written, context) {
      // The one check its schema cannot make, on the file's object alone (the option is checked as an option).
      const problem = written === undefined ? undefined : timeoutCeilingProblem(written);
      if (problem !== undefined) context.report(["maxTimeoutMs"], problem);
      return resolveCodeExecutionOptions(written, fromOptions);
    },
    enabled: (settings) => settings.enabled,
  }, lazy);
}
