/** Why a built-in tool is absent from the registry, and how a host turns it on. */
import { CODE_EXECUTION_TOOL_NAME, HUMAN_INPUT_TOOL_NAME, WEB_SEARCH_TOOL_NAME } from "./core/tool-names.js";

/**
 * The hint the call pipeline adds to `TOOL_NOT_FOUND` for a built-in tool that is switched off;
 * `undefined` for any other name.
 *
 * @example
 * unavailableToolHint("code_execution"); // 'Code execution is disabled: "code_execution" is offered only when enabled, ...'
 */
export function unavailableToolHint(name: string): string | undefined {
  if (name === CODE_EXECUTION_TOOL_NAME) {
    return 'Code execution is disabled: "code_execution" is offered only when enabled, with createExecutor({ codeExecution: { enabled: true } }) or "codeExecution": { "enabled": true } in tools.json';
  }
  if (name === HUMAN_INPUT_TOOL_NAME) {
    return 'No human input: "request_human_input" is offered only when the host answers questions, with createExecutor({ onHumanInput: async ({ question }) => answer })';
  }
  if (name === WEB_SEARCH_TOOL_NAME) {
    return 'Web search is not configured: "web_search" is offered only with a provider, with "webSearch": { "provider": "brave", "apiKey": "${BRAVE_API_KEY}" } in tools.json or createExecutor({ webSearch })';
  }
  return undefined;
}
