/** Line and column of an offset in a text: the index of line starts is built once, each lookup is a binary search. */
import type { JsonLocation } from "./parse-json-document.js";

/** A function from an offset in `source` to its 1-based line and column. */
export function lineLocator(source: string): (offset: number) => JsonLocation {
  const lineStarts = [0];
  for (let index = 0; index < source.length; index++) if (source[index] === "\n") lineStarts.push(index + 1);
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low]! + 1 };
  };
}
