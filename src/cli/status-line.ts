/**
 * One line of progress at the bottom of a terminal, redrawn in place (carriage return, erase to the
 * end of the line) with a spinner, and erased before any other output and at the end. The CLI makes
 * one only when stderr is a terminal and `--json` is not given: piped output never holds one.
 */

/** Where the line is drawn: stderr when it is a terminal. */
export interface Terminal {
  write(text: string): void;
  /** Its width; the line is cut to fit, as a wrapped line cannot be redrawn in place. */
  columns(): number;
}

export interface StatusLine {
  /** Show `render()` from `delayMs` on (default at once), redrawn every 100 ms, until `hide()`. */
  show(render: () => string, options?: { delayMs?: number }): void;
  /** Stop showing it and erase it. */
  hide(): void;
  /** Erase it for now (other output comes); it is drawn again at the next tick. */
  clear(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const REDRAW_MS = 100;
const ERASE = "\r\x1b[K";

/**
 * @example
 * const status = createStatusLine({ write: (text) => process.stderr.write(text), columns: () => process.stderr.columns });
 * status.show(() => `calling docs__search ${elapsed()}`, { delayMs: 500 });
 */
export function createStatusLine(terminal: Terminal): StatusLine {
  let render: (() => string) | undefined;
  let visibleFrom = 0;
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  let drawn = false;
  const draw = () => {
    if (render === undefined || Date.now() < visibleFrom) return;
    const text = `${FRAMES[frame++ % FRAMES.length]} ${render()}`;
    terminal.write(`\r${[...text].slice(0, Math.max(1, terminal.columns() - 1)).join("")}\x1b[K`);
    drawn = true;
  };
  const clear = () => {
    if (!drawn) return;
    terminal.write(ERASE);
    drawn = false;
  };
  return {
    show(next, options = {}) {
      render = next;
      visibleFrom = Date.now() + (options.delayMs ?? 0);
      if (timer === undefined) {
        timer = setInterval(draw, REDRAW_MS);
        // The line never keeps the CLI alive.
        timer.unref();
      }
      draw();
    },
    hide() {
      render = undefined;
      clearInterval(timer);
      timer = undefined;
      clear();
    },
    clear,
  };
}

/** `4.2 s`, `1 min 05 s`: a duration for the line. */
export function formatElapsed(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${String(Math.floor(seconds % 60)).padStart(2, "0")} s`;
}
