/**
 * Decodes a config file's bytes as strict UTF-8. Lenient decoding turns Latin-1 bytes into U+FFFD
 * without a word, so `"café"` saved by an old editor would load as `"caf\uFFFD"`; UTF-16 (Windows
 * Notepad, PowerShell's `>`) would fail as a baffling syntax error at line 1, column 1.
 */
import type { JsonLocation } from "./parse-json-document.js";

export type DecodeResult = { ok: true; text: string } | { ok: false; message: string; location: JsonLocation };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Line and column (1-based, in characters of the valid text before it) of byte `offset`. */
function locateByte(bytes: Uint8Array, offset: number): JsonLocation {
  const before = new TextDecoder("utf-8").decode(bytes.subarray(0, offset));
  const lines = before.split("\n");
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** The offset of the first byte that is not valid UTF-8 (the lead byte of a cut-short character). */
function firstInvalidByte(bytes: Uint8Array): number {
  // Prefixes decoded in streaming mode fail only past an invalid byte: binary search for the first failing one.
  let low = 0;
  let high = bytes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, middle + 1), { stream: true });
      low = middle + 1;
    } catch {
      high = middle;
    }
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, low));
    return low;
  } catch {
    // The bytes before it end in a character cut short (é in Latin-1 followed by a quote): blame its lead byte.
    let start = low - 1;
    while (start > 0 && (bytes[start]! & 0xc0) === 0x80) start--;
    return start;
  }
}

/**
 * A UTF-16 byte-order mark, or JSON's ASCII punctuation with a zero byte beside each character
 * (`{\0"\0` or `\0{\0"`). One stray NUL byte is not UTF-16: the JSON parser reports it.
 */
function looksLikeUtf16(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  if (bytes.length < 4) return false;
  const littleEndian = bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0;
  const bigEndian = bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0;
  return littleEndian || bigEndian;
}

/**
 * @example
 * decodeConfigText(await readFile("tools.json")); // { ok: true, text: "{ \"tools\": [] }" }
 */
export function decodeConfigText(bytes: Uint8Array): DecodeResult {
  if (looksLikeUtf16(bytes)) return { ok: false, message: "Expected UTF-8 text, got what looks like UTF-16: save the file as UTF-8", location: { line: 1, column: 1 } };
  try {
    return { ok: true, text: strictUtf8.decode(bytes) };
  } catch {
    const offset = firstInvalidByte(bytes);
    const byte = bytes[offset]!.toString(16).toUpperCase().padStart(2, "0");
    return { ok: false, message: `Expected UTF-8 text, got the byte 0x${byte}, which is not valid UTF-8 (a Latin-1 or Windows-1252 character?): save the file as UTF-8`, location: locateByte(bytes, offset) };
  }
}
