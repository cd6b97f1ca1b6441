/** The events the python plugin emits to hosts (`executor.on(...)`), declared on the core's plugin events. */
import "../../core/python-environments/environment-events.js";

export type { PythonEnvironmentEvent } from "../../core/python-environments/environment-events.js";

/** A line a Python tool logged through a FastMCP `Context` (`await ctx.info(...)`). */
export interface PythonLogEvent {
  tool: string;
  executionId: string;
  level: string;
  message: string;
}

declare module "../../core/plugin-events.js" {
  interface PluginEvents {
    "python:log": PythonLogEvent;
  }
}
