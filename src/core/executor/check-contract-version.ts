/**
 * The contract version a plugin states (`contractVersion`), checked when the executor is created so
 * that a plugin written for a contract this executor cannot honour is refused before anything runs.
 */
import { ToolexecError } from "../errors/toolexec-error.js";
import { MIN_PLUGIN_CONTRACT_VERSION, PLUGIN_CONTRACT_VERSION } from "../plugin-contract.js";

/** The version a plugin targets: its `contractVersion`, or 1 when it states none (it predates the field). */
export function contractVersionOf(plugin: { contractVersion?: unknown }): unknown {
  return plugin.contractVersion ?? 1;
}

/** Throws `INVALID_OPTIONS` naming the plugin, its version and the supported range when it is outside that range. */
export function checkContractVersion(plugin: { name: string; contractVersion?: unknown }): void {
  const version = contractVersionOf(plugin);
  if (typeof version === "number" && Number.isInteger(version) && version >= MIN_PLUGIN_CONTRACT_VERSION && version <= PLUGIN_CONTRACT_VERSION) return;
  const range = `${MIN_PLUGIN_CONTRACT_VERSION} to ${PLUGIN_CONTRACT_VERSION}`;
  const stated = typeof version === "number" ? String(version) : JSON.stringify(version) ?? String(version);
  const advice = typeof version === "number" && version > PLUGIN_CONTRACT_VERSION ? "; update toolexec, or use a release of the plugin written for these versions" : "";
  throw new ToolexecError(
    "INVALID_OPTIONS",
    `Plugin "${plugin.name}" is written for plugin contract version ${stated}; this toolexec supports versions ${range}${advice}`,
    { details: { plugin: plugin.name, contractVersion: version, supported: { min: MIN_PLUGIN_CONTRACT_VERSION, max: PLUGIN_CONTRACT_VERSION } } },
  );
}
