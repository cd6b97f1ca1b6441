/**
 * Before a Python server file (mcp.json `python`) starts: its environment, built when missing — once
 * per machine, shared with the python plugin's tools and `toolexec python sync` — and the command
 * switched to that environment's interpreter. A build that fails is the attempt's permanent failure,
 * with the installer's own words; the quiet re-check after a while tries the build again.
 */
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import type { Logger } from "../../core/plugin-contract.js";
import { environmentProgressNote } from "../../core/python-environments/environment-progress-note.js";
import type { McpServerEvents } from "./server-info.js";
import type { SessionFailure } from "./session-failure.js";

type Emit = (event: "python:environment", payload: McpServerEvents["python:environment"]) => void;

/**
 * The entry to start: as it is, or with its environment's interpreter as the command.
 *
 * @example
 * const prepared = await preparePythonServer(run.entry, logger, emit);
 * if (prepared.ok) await connectServer({ ...options, entry: prepared.entry }, ...);
 */
export async function preparePythonServer(entry: McpServerEntry, logger: Logger, emit: Emit): Promise<{ ok: true; entry: McpServerEntry } | { ok: false; failure: SessionFailure }> {
  if (entry.transport !== "stdio" || entry.python?.environment === undefined) return { ok: true, entry };
  const { environment: spec, interpreter, root } = entry.python;
  // Loaded only for a Python server file: most executors have none.
  const { ensurePythonEnvironment, PythonEnvironmentError } = await import("../../core/python-environments/ensure-python-environment.js");
  try {
    const onProgress = (progress: Parameters<typeof environmentProgressNote>[0]) => {
      logger.info(environmentProgressNote(progress, spec, root), { event: "python:environment", server: entry.name, stage: progress.stage });
      emit("python:environment", { ...progress, source: spec.source });
    };
    const built = await ensurePythonEnvironment(spec, { interpreter, cwd: root, onProgress });
    return { ok: true, entry: { ...entry, command: built.interpreter } };
  } catch (error) {
    const message = (error as Error).message;
    const details = error instanceof PythonEnvironmentError ? error.details : {};
    emit("python:environment", { stage: "failed", source: spec.source, message: message.slice(0, 2000) });
    return { ok: false, failure: { kind: "permanent", message: `Server "${entry.name}" could not be started: ${message}`, details } };
  }
}
