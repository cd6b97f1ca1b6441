/**
 * Use-time containment of Python modules: before a worker imports a module (a fresh worker, or one
 * after an edit), the module's real path must lie inside the real `tools/` folder (containToolFile),
 * and the worker imports that real path, so a link swapped in after the check changes nothing. A
 * module a worker imported already is not checked again: nothing new is imported.
 */
import { containToolFile } from "../../core/config/contain-tool-file.js";
import type { ToolErrorInfo } from "../../core/plugin-contract.js";
import type { PythonWorker, WorkerAnswer } from "./python-worker.js";

/** A module as tools.json names it: its absolute path, and its path relative to tools/. */
export interface ModuleRef {
  module: string;
  modulePath: string;
}

/** The fields of a request about a module the worker imported already: nothing to check, at once. */
export function importedModuleFields(entry: ModuleRef): { ok: true; fields: { module: string } } {
  return { ok: true, fields: { module: entry.module } };
}

/**
 * The fields of a request about `entry`'s module: its real path to import when `worker` has not
 * imported it yet, or the refusal (`SCRIPT_MISSING`, `SCRIPT_NOT_ALLOWED`).
 *
 * @example
 * const target = await moduleFields(worker, entry, root);
 * if (target.ok) await worker.request({ op: "call", ...target.fields, function: "word_count", arguments });
 */
export async function moduleFields(
  worker: PythonWorker,
  entry: ModuleRef,
  root: string,
): Promise<{ ok: true; fields: { module: string; realPath?: string } } | { ok: false; error: ToolErrorInfo }> {
  if (worker.imported.has(entry.module)) return importedModuleFields(entry);
  const label = `tools/${entry.modulePath}`;
  const contained = await containToolFile(entry.module, root);
  if (contained.ok) return { ok: true, fields: { module: entry.module, realPath: contained.realPath } };
  switch (contained.problem) {
    case "missing":
      return { ok: false, error: { code: "SCRIPT_MISSING", message: `Python module ${label} does not exist; create it or fix tools.json`, details: { module: entry.modulePath } } };
    case "tools-outside-project":
      return {
        ok: false,
        error: { code: "SCRIPT_NOT_ALLOWED", message: `Refused to import ${label}: tools/ now leads outside the project, to ${contained.realTools}`, details: { module: entry.modulePath, realPath: contained.realPath } },
      };
    case "outside-tools":
      return {
        ok: false,
        error: { code: "SCRIPT_NOT_ALLOWED", message: `Refused to import ${label}: it now leads outside tools/, to ${contained.realPath}`, details: { module: entry.modulePath, realPath: contained.realPath } },
      };
  }
}

/** Remember that `worker` holds the module now (any answer but a failed import means it does). */
export function noteImport(worker: PythonWorker, module: string, answer: WorkerAnswer): void {
  if (answer["code"] !== "IMPORT_FAILED") worker.imported.add(module);
}
