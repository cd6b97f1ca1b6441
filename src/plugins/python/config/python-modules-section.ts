/**
 * The section the python plugin declares: tools.json's `pythonModules`, resolved into one entry per
 * Python file with the settings of the tools found in it (tools.json's `defaults` under its own).
 */
import { resolveProjectPaths } from "../../../core/config/check-tool-paths.js";
import { withLazySchema } from "../../../core/config/lazy-section-schema.js";
import { resolveInterpreter } from "../../../core/config/load-tools-config.js";
import { resolveToolEnvironment } from "../../../core/config/resolve-tool-environment.js";
import type { ToolsKeySection } from "../../../core/plugin-config.js";
import { resolveEntryEnvironment } from "../../../core/python-environments/resolve-python-environment.js";
import type { PythonModuleFile } from "./python-modules-schema.js";
import { resolvePythonModules, type PythonModuleEntry } from "./resolve-python-modules.js";

/** The python plugin's settings: the modules to discover tools in, and the worker limits of tools.json's `python` key. */
export interface PythonSettings {
  modules: PythonModuleEntry[];
  maxWorkers?: number;
  maxAsyncCallsPerWorker?: number;
}

/** @example pythonPlugin() declares pythonModulesSection(); its value reaches start as `context.config`. */
export function pythonModulesSection(): ToolsKeySection<PythonModuleFile[], PythonSettings> {
  // Its resolver checks each item with the item schema, so a written list always loads the schemas.
  let schemas: typeof import("./python-modules-schema.js") | undefined;
  const lazy = { isWellFormed: () => false, load: async () => (schemas = await import("./python-modules-schema.js")).pythonModulesSchema };
  return withLazySchema<ToolsKeySection<PythonModuleFile[], PythonSettings>>({
    key: "pythonModules",
    resolve(written, context) {
      const project = context.toolDefaults?.pythonProject ?? {};
      const limits = { ...(project.maxWorkers === undefined ? {} : { maxWorkers: project.maxWorkers }), ...(project.maxAsyncCallsPerWorker === undefined ? {} : { maxAsyncCallsPerWorker: project.maxAsyncCallsPerWorker }) };
      if (written === undefined) return { modules: [], ...limits };
      const paths = resolveProjectPaths(context.root);
      const report = (at: ReadonlyArray<string | number>, message: string, warning?: boolean) => context.report(at, message, { warning: warning === true });
      // Each item checked here, located: one refused leaves a hole, so the others keep their index.
      const items = written.map((item, index) => context.check(schemas!.pythonModuleSchema, item, [index]));
      const modules = resolvePythonModules(items, {
        paths,
        defaults: context.toolDefaults ?? { env: {} },
        resolveEnv: (env, at) => resolveToolEnvironment(env, at, report),
        resolveInterpreter: (interpreter) => resolveInterpreter(context.root, interpreter) ?? "python3",
        resolveEnvironment: (item, index, module) =>
          resolveEntryEnvironment({ ...(item.python ? { own: item.python } : {}), at: [index], file: context.file, module, toolsDir: paths.toolsDir, project, report: (at, message) => report(at, message) }),
        report,
      });
      return { modules, ...limits };
    },
  }, lazy);
}
