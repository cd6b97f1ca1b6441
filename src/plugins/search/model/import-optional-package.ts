/**
 * The search model's runtime packages are optional peer dependencies: `npm install toolexec` does
 * not bring them, and they are imported only when `toolSearch.model` is configured. A missing one
 * is a clear error naming the package and the command that installs it.
 */
import { ToolexecError } from "../../../core/errors/toolexec-error.js";

/** The packages the model stage runs on. */
export const MODEL_RUNTIME_PACKAGES = ["onnxruntime-node", "@huggingface/tokenizers"] as const;
export type ModelRuntimePackage = (typeof MODEL_RUNTIME_PACKAGES)[number];

function isMissing(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = String((error as Error | null)?.message ?? "");
  return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && message.includes(`'${name}'`);
}

/**
 * Import one of the runtime packages; throws PLUGIN_FAILED naming it when it is not installed.
 *
 * @example
 * const runtime = await importOptionalPackage("onnxruntime-node");
 */
export async function importOptionalPackage(name: ModelRuntimePackage): Promise<unknown> {
  try {
    // A variable specifier: TypeScript must not resolve (or require) the optional package at build time.
    const specifier: string = name;
    return await import(specifier);
  } catch (error) {
    if (!isMissing(error, name)) throw error;
    throw new ToolexecError(
      "PLUGIN_FAILED",
      `toolSearch.model needs the package "${name}", which is not installed: run npm install ${MODEL_RUNTIME_PACKAGES.join(" ")} (optional peer dependencies of toolexec), or remove toolSearch.model`,
      { details: { package: name }, cause: error },
    );
  }
}
