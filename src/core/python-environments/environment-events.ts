/**
 * The event hosts hear about a Python environment (`executor.on("python:environment", ...)`), from
 * whichever plugin needs one: the python plugin for its tools and modules, the MCP plugin for
 * mcp.json's Python server files.
 */
import type { EnvironmentProgress } from "./ensure-python-environment.js";

/** What hosts hear of an environment a plugin needs. */
export interface PythonEnvironmentEvent {
  stage: EnvironmentProgress["stage"] | "failed";
  /** The environment's folder name (a hash of its requirements and base interpreter) and its path. */
  key?: string;
  folder?: string;
  /** Where its requirements are declared (`tools.json tools[0]`, `MCP server "weather"`). */
  source: string;
  installer?: string;
  durationMs?: number;
  /** Why it failed (the installer's own words, cut). */
  message?: string;
}

declare module "../plugin-events.js" {
  interface PluginEvents {
    /** A Python environment is awaited (`waiting`: another process builds it), built (`building`, `built`) or could not be (`failed`). */
    "python:environment": PythonEnvironmentEvent;
  }
}
