/** Splits a byte stream into newline-terminated lines, refusing any line longer than a cap. */

/**
 * Returns the function to feed chunks to. `onLine` gets each complete line (UTF-8, without its
 * newline); `onOverflow` is called once when a line grows past `maxLineBytes`, after which the
 * reader ignores everything.
 *
 * @example
 * const feed = createLineReader(1024, (line) => console.log(JSON.parse(line)), () => child.kill());
 * socket.on("data", feed);
 */
export function createLineReader(maxLineBytes: number, onLine: (line: string) => void, onOverflow: () => void): (chunk: Buffer) => void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let broken = false;
  return (chunk) => {
    if (broken) return;
    let start = 0;
    let newline = chunk.indexOf(10, start);
    while (newline >= 0) {
      if (pendingBytes + newline - start > maxLineBytes) break;
      const piece = chunk.subarray(start, newline);
      const line = pending.length === 0 ? piece.toString("utf8") : Buffer.concat([...pending, piece]).toString("utf8");
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
      onLine(line);
      newline = chunk.indexOf(10, start);
    }
    const rest = chunk.length - start;
    if (newline >= 0 || pendingBytes + rest > maxLineBytes) {
      broken = true;
      pending = [];
      onOverflow();
      return;
    }
    if (rest > 0) {
      pending.push(chunk.subarray(start));
      pendingBytes += rest;
    }
  };
}
