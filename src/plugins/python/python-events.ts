/** The events the python plugin emits to hosts (`executor.on(...)`), declared on the core's plugin events. */
import type { EnvironmentProgress } from "../../core/python-environments/ensure-python-environment.js";

/** What hosts hear of an environment the plugin needs. */
export interface PythonEnvironmentEvent {
  stage: EnvironmentProgress["stage"] | "failed";
  /** The environment's folder name (a hash of its requirements and base interpreter) and its path. */
  key?: string;
  folder?: string;
  /** Where its requirements are declared. */
  source: string;
  installer?: string;
  durationMs?: number;
  /** Why it failed (the installer's own words, cut). */
  message?: string;
}

/** A line a Python tool logged through a FastMCP `Context` (`await ctx.info(...)`). */
export interface PythonLogEvent {
  tool: string;
  executionId: string;
  level: string;
  message: string;
}

declare module "../../core/plugin-events.js" {
  interface PluginEvents {
    /** A Python environment is awaited (`waiting`: another process builds it), built (`building`, `built`) or could not be (`failed`). */
    "python:environment": PythonEnvironmentEvent;
    "python:log": PythonLogEvent;
  }
}
