/** What every command's `run` receives: its parsed flags and arguments, the library, and where to print. */
import type { FlagValues } from "./parse-command-line.js";
import type { StatusLine, Terminal } from "./status-line.js";

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** stderr, when it is a terminal that can redraw a line (not TERM=dumb): progress is shown there. */
  terminal?: Terminal;
}

export interface CommandContext {
  /** The command's name, `"tools call"`, for usage errors. */
  command: string;
  values: FlagValues;
  positionals: string[];
  /** The public entry, loaded once a command runs (help and usage errors never load it; nor does a `standalone` command, which must not use it). */
  library: typeof import("../index.js");
  output: Output;
  /** The folder command-line paths are relative to. */
  cwd: string;
  readStdin(): Promise<string>;
  /** The progress line, when stderr is a terminal and `--json` is not given; `output` erases it before printing. */
  status?: StatusLine;
  /** The registry `serve --http` renders at `/metrics` (start-telemetry.ts). */
  metrics?: import("../serve.js").MetricsRegistry;
}
