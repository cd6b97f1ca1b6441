/**
 * tools.json's limits and patterns, in a module without zod: the start path (call input, the fast
 * shape check, entry resolution) reads them without loading the schemas behind them.
 */

/** `"text_tools.py:word_count"`: a .py file under tools/ and a Python identifier. */
export const PYTHON_FUNCTION_PATTERN = /^[^:\u0000]+\.py:[A-Za-z_][A-Za-z0-9_]*$/;
export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** Below this a Python worker cannot even start (the interpreter maps ~20 MiB of address space). */
export const MIN_PYTHON_MEMORY_LIMIT_MB = 64;
/** tools.json's own top-level keys, which no plugin may claim. */
export const CORE_TOOLS_KEYS = ["$schema", "defaults", "tools", "python"] as const;
