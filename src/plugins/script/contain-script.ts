/**
 * Call-time containment of a script: its real path must lie inside the real `tools/` folder, which
 * must itself lie inside the real project root. Checked before every spawn, not only at load,
 * because a script (or `tools/` itself) may be swapped for a symlink leading elsewhere after load.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { isInside } from "../../core/config/check-tool-paths.js";
import type { ScriptToolEntry } from "../../core/config/load-tools-config.js";
import type { PluginResult } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";

async function realPathOrUndefined(target: string): Promise<string | undefined> {
  try {
    return await realpath(target);
  } catch {
    return undefined;
  }
}

/**
 * The script's real path to spawn, or the refusal: `SCRIPT_MISSING` when it does not resolve to an
 * existing file (a dangling link included), `SCRIPT_NOT_ALLOWED` when it resolves outside `tools/`.
 * Spawning the resolved path (not the configured one) leaves no window for a link swapped in
 * between this check and the spawn.
 *
 * @example
 * const contained = await containScript(entry, root);
 * if (!contained.ok) return contained.refusal;
 */
export async function containScript(
  entry: ScriptToolEntry,
  root: string,
): Promise<{ ok: true; realScript: string } | { ok: false; refusal: PluginResult }> {
  const scriptLabel = `tools/${entry.scriptPath}`;
  const realRoot = (await realPathOrUndefined(root)) ?? root;
  const realTools = await realPathOrUndefined(path.join(root, "tools"));
  const realScript = await realPathOrUndefined(entry.script);
  if (realScript === undefined || realTools === undefined) {
    return {
      ok: false,
      refusal: toolError("SCRIPT_MISSING", `Script ${scriptLabel} does not exist (tool "${entry.name}"); create it or fix "script" in tools.json`, {
        script: path.relative(root, entry.script),
      }),
    };
  }
  if (!isInside(realRoot, realTools)) {
    return {
      ok: false,
      refusal: toolError("SCRIPT_NOT_ALLOWED", `Refused to run ${scriptLabel} (tool "${entry.name}"): tools/ now leads outside the project, to ${realTools}`, {
        script: path.relative(root, entry.script),
        realPath: realScript,
      }),
    };
  }
  if (!isInside(realTools, realScript)) {
    return {
      ok: false,
      refusal: toolError("SCRIPT_NOT_ALLOWED", `Refused to run ${scriptLabel} (tool "${entry.name}"): it now leads outside tools/, to ${realScript}`, {
        script: path.relative(root, entry.script),
        realPath: realScript,
      }),
    };
  }
  return { ok: true, realScript };
}
