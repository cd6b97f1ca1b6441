/**
 * Text edits on the submitted code, applied in one pass, with the column edits the runtime uses to
 * point stack frames at the code as written (runtime/stack-frames.mjs). Edits never add or remove a
 * line break, so lines always match.
 */
import { loadAcorn } from "./load-acorn.js";

/** Replace `code.slice(start, end)` with `text`; `start === end` inserts. */
export interface SourceEdit {
  start: number;
  end: number;
  text: string;
  /** Among edits at the same `start`, lower goes first. */
  order?: number;
}

/**
 * One edit that moves columns, as the runtime needs it: 1-based line, 0-based column in the
 * submitted code, the edited length there and the length it has in the evaluated source.
 */
export type ColumnEdit = [line: number, column: number, originalLength: number, generatedLength: number];

export interface AppliedEdits {
  text: string;
  columnEdits: ColumnEdit[];
}

/** Apply non-overlapping edits and record the ones that change lengths. */
export function applyEdits(code: string, edits: readonly SourceEdit[]): AppliedEdits {
  const sorted = [...edits].sort((left, right) => left.start - right.start || (left.order ?? 0) - (right.order ?? 0));
  const parts: string[] = [];
  const columnEdits: ColumnEdit[] = [];
  let position = 0;
  for (const edit of sorted) {
    if (edit.start < position) continue;
    parts.push(code.slice(position, edit.start), edit.text);
    position = edit.end;
    if (edit.text.length !== edit.end - edit.start) {
      const { line, column } = loadAcorn().getLineInfo(code, edit.start);
      columnEdits.push([line, column, edit.end - edit.start, edit.text.length]);
    }
  }
  parts.push(code.slice(position));
  return { text: parts.join(""), columnEdits };
}
