/**
 * `toolexec/testing`: the plugin contract suite every built-in plugin passes, for plugin authors
 * (needs vitest).
 *
 * @example
 * import { testPluginContract } from "toolexec/testing";
 * testPluginContract("clock", { plugin: clockPlugin, entries: () => [], quickCall, slowCall });
 */
export { testPluginContract } from "./testing/plugin-contract-suite.js";
export type { ContractSetup, StartSignals } from "./testing/plugin-contract-suite.js";
