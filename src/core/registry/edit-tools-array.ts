/**
 * Edits the `tools` array of a tools.json text in place: one entry replaced, appended or removed,
 * every other byte of the file left as it was (other entries, their key order and layout, the
 * indentation, line endings, the final newline), so a registry write is a small, readable diff.
 * The text must be valid JSON (the writer has parsed it).
 */

interface Span {
  start: number;
  end: number;
}

interface ToolsArray {
  /** Index of `[` and of `]`. */
  open: number;
  close: number;
  elements: Span[];
  /** Whitespace before the `"tools"` key on its line. */
  keyIndent: string;
}

const isWhitespace = (char: string | undefined) => char === " " || char === "\n" || char === "\r" || char === "\t";

/** Index just past the string literal starting at `start` (a `"`). */
function skipString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === "\\") index += 2;
    else if (char === '"') return index + 1;
    else index++;
  }
  return index;
}

function skipWhitespace(text: string, index: number): number {
  while (isWhitespace(text[index])) index++;
  return index;
}

function lineIndent(text: string, index: number): string {
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  const match = /^[ \t]*/.exec(text.slice(lineStart, index));
  return match ? match[0] : "";
}

/** The elements of the array that starts at `open`. */
function scanArray(text: string, open: number): { close: number; elements: Span[] } {
  const elements: Span[] = [];
  let depth = 0;
  let start = -1;
  let end = -1;
  for (let index = open + 1; index < text.length; ) {
    const char = text[index]!;
    if (char === '"') {
      if (depth === 0 && start < 0) start = index;
      index = skipString(text, index);
      if (depth === 0) end = index;
      continue;
    }
    if (char === "{" || char === "[") {
      if (depth === 0 && start < 0) start = index;
      depth++;
    } else if (char === "}" || char === "]") {
      if (depth === 0) {
        if (start >= 0) elements.push({ start, end });
        return { close: index, elements };
      }
      depth--;
      if (depth === 0) end = index + 1;
    } else if (char === "," && depth === 0) {
      elements.push({ start, end });
      start = -1;
    } else if (!isWhitespace(char) && depth === 0) {
      if (start < 0) start = index;
      end = index + 1;
    }
    index++;
  }
  throw new Error("Unterminated array in tools.json text");
}

/** Where the top-level `"tools"` array and its elements stand in `text`. */
function locateToolsArray(text: string): ToolsArray {
  let depth = 0;
  for (let index = 0; index < text.length; ) {
    const char = text[index]!;
    if (char === '"') {
      const end = skipString(text, index);
      const afterKey = skipWhitespace(text, end);
      if (depth === 1 && text[afterKey] === ":") {
        const valueStart = skipWhitespace(text, afterKey + 1);
        if (JSON.parse(text.slice(index, end)) === "tools" && text[valueStart] === "[") {
          return { open: valueStart, ...scanArray(text, valueStart), keyIndent: lineIndent(text, index) };
        }
      }
      index = end;
      continue;
    }
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    index++;
  }
  throw new Error('No "tools" array in tools.json text');
}

/** How the file lays out the array: indentation of its elements and one level, line ending. */
interface Layout {
  /** Undefined when the array is written on one line: new entries are written on one line too. */
  elementIndent?: string;
  unit: string;
  newline: string;
}

function detectLayout(text: string, array: ToolsArray): Layout {
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  const first = array.elements[0];
  const multiline = first ? text.slice(array.open, first.start).includes("\n") : text.includes("\n");
  if (!multiline) return { unit: "", newline };
  const indents = text.match(/\n([ \t]+)\S/);
  const fileUnit = indents ? (indents[1]!.startsWith("\t") ? "\t" : indents[1]!) : "  ";
  const elementIndent = first ? lineIndent(text, first.start) : array.keyIndent + fileUnit;
  const unit = elementIndent.startsWith(array.keyIndent) && elementIndent.length > array.keyIndent.length ? elementIndent.slice(array.keyIndent.length) : fileUnit;
  return { elementIndent, unit, newline };
}

function serialize(entry: unknown, layout: Layout): string {
  if (layout.elementIndent === undefined) return JSON.stringify(entry);
  return JSON.stringify(entry, null, layout.unit).split("\n").join(layout.newline + layout.elementIndent);
}

/** `text` with `tools[index]` replaced by `entry`. */
export function replaceToolEntry(text: string, index: number, entry: unknown): string {
  const array = locateToolsArray(text);
  const { start, end } = array.elements[index]!;
  return text.slice(0, start) + serialize(entry, detectLayout(text, array)) + text.slice(end);
}

/** `text` with `entry` added at the end of `tools`. */
export function appendToolEntry(text: string, entry: unknown): string {
  const array = locateToolsArray(text);
  const layout = detectLayout(text, array);
  const serialized = serialize(entry, layout);
  const last = array.elements.at(-1);
  if (last) {
    const separator = layout.elementIndent === undefined ? ", " : `,${layout.newline}${layout.elementIndent}`;
    return text.slice(0, last.end) + separator + serialized + text.slice(last.end);
  }
  const body = layout.elementIndent === undefined ? serialized : `${layout.newline}${layout.elementIndent}${serialized}${layout.newline}${array.keyIndent}`;
  return `${text.slice(0, array.open)}[${body}]${text.slice(array.close + 1)}`;
}

/** `text` without `tools[index]` (and the comma that separated it). */
export function removeToolEntry(text: string, index: number): string {
  const array = locateToolsArray(text);
  const { elements } = array;
  if (elements.length === 1) return `${text.slice(0, array.open)}[]${text.slice(array.close + 1)}`;
  const cut = index < elements.length - 1 ? { start: elements[index]!.start, end: elements[index + 1]!.start } : { start: elements[index - 1]!.end, end: elements[index]!.end };
  return text.slice(0, cut.start) + text.slice(cut.end);
}
