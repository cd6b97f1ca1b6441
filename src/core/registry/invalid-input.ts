/** The registry's answer to a write it refuses for what the caller sent. */
import { ToolexecError } from "../errors/toolexec-error.js";

/** An `INVALID_INPUT` error, with `details` when given. */
export const invalidInput = (message: string, details?: Record<string, unknown>) => new ToolexecError("INVALID_INPUT", message, details ? { details } : {});
