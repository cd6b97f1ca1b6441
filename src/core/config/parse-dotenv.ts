/** Reads a dotenv file's text (VS Code's `envFile`): `KEY=value` lines, comments, optional quotes. */

export type ParseDotenvResult = { ok: true; values: Record<string, string> } | { ok: false; line: number; message: string };

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/;

/**
 * Parse `text` the way most dotenv loaders do: `#` starts a comment line or an unquoted trailing
 * comment; double-quoted values understand `\n`; single-quoted values are literal.
 *
 * @example
 * parseDotenv('TOKEN="abc"\n# note\nDEBUG=1'); // { ok: true, values: { TOKEN: "abc", DEBUG: "1" } }
 */
export function parseDotenv(text: string): ParseDotenvResult {
  const values: Record<string, string> = {};
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const match = LINE.exec(line);
    if (!match) return { ok: false, line: index + 1, message: `Expected KEY=value, got ${JSON.stringify(line.trim().slice(0, 40))}` };
    const [, key, raw] = match as unknown as [string, string, string];
    let value: string;
    const quote = raw[0];
    if ((quote === '"' || quote === "'") && raw.length >= 2 && raw.endsWith(quote)) {
      value = raw.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, "\n").replace(/\\"/g, '"');
    } else {
      value = raw.replace(/\s+#.*$/, "");
    }
    Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, values };
}
