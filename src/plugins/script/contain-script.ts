/**
 * Call-time containment of a script (see containToolFile): checked before every spawn, not only at
 * load, because a script (or `tools/` itself) may be swapped for a symlink leading elsewhere after load.
 */
import path from "node:path";
import { containToolFile } from "../../core/config/contain-tool-file.js";
import type { ScriptToolEntry } from "../../core/config/load-tools-config.js";
import type { PluginResult } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";

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
  const script = path.relative(root, entry.script);
  const contained = await containToolFile(entry.script, root);
  if (contained.ok) return { ok: true, realScript: contained.realPath };
  switch (contained.problem) {
    case "missing":
      return {
        ok: false,
        refusal: toolError("SCRIPT_MISSING", `Script ${scriptLabel} does not exist (tool "${entry.name}"); create it or fix "script" in tools.json`, { script }),
      };
    case "tools-outside-project":
      return {
        ok: false,
        refusal: toolError("SCRIPT_NOT_ALLOWED", `Refused to run ${scriptLabel} (tool "${entry.name}"): tools/ now leads outside the project, to ${contained.realTools}`, {
          script,
          realPath: contained.realPath,
        }),
      };
    case "outside-tools":
      return {
        ok: false,
        refusal: toolError("SCRIPT_NOT_ALLOWED", `Refused to run ${scriptLabel} (tool "${entry.name}"): it now leads outside tools/, to ${contained.realPath}`, {
          script,
          realPath: contained.realPath,
        }),
      };
  }
}
