/**
 * The section the python plugin declares: tools.json's `pythonModules`, resolved into one entry per
 * Python file with the settings of the tools found in it (tools.json's `defaults` under its own).
 */
import { resolveProjectPaths } from "../../../core/config/check-tool-paths.js";
import { resolveInterpreter } from "../../../core/config/load-tools-config.js";
import { resolveToolEnvironment } from "../../../core/config/resolve-tool-environment.js";
import type { ToolsKeySection } from "../../../core/plugin-config.js";
import { pythonModuleSchema, pythonModulesSchema, type PythonModuleFile } from "./python-modules-schema.js";
import { resolvePythonModules, type PythonModuleEntry } from "./resolve-python-modules.js";

/** @example pythonPlugin() declares pythonModulesSection(); its value reaches start as `context.config`. */
export function pythonModulesSection(): ToolsKeySection<PythonModuleFile[], PythonModuleEntry[]> {
  return {
    key: "pythonModules",
    schema: pythonModulesSchema,
    resolve(written, context) {
      if (written === undefined) return [];
      const report = (at: ReadonlyArray<string | number>, message: string, warning?: boolean) => context.report(at, message, { warning: warning === true });
      // Each item checked here, located: one refused leaves a hole, so the others keep their index.
      const items = written.map((item, index) => context.check(pythonModuleSchema, item, [index]));
      return resolvePythonModules(items, {
        paths: resolveProjectPaths(context.root),
        defaults: context.toolDefaults ?? { env: {} },
        resolveEnv: (env, at) => resolveToolEnvironment(env, at, report),
        resolveInterpreter: (interpreter) => resolveInterpreter(context.root, interpreter) ?? "python3",
        report,
      });
    },
  };
}
