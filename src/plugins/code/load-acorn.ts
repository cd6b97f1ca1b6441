/**
 * acorn, loaded on the first parse instead of at start: an executor that runs no code should not
 * pay its ~7 ms of CPU. `require` keeps the parser pre-pass synchronous; acorn holds no state, so
 * its CommonJS build is as good as its ES module (nothing else in the host loads acorn).
 */
import { createRequire } from "node:module";

type Acorn = typeof import("acorn");

let acorn: Acorn | undefined;

/**
 * @example
 * const { line, column } = loadAcorn().getLineInfo(code, offset);
 */
export function loadAcorn(): Acorn {
  return (acorn ??= createRequire(import.meta.url)("acorn") as Acorn);
}
