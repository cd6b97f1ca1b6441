/** Reads a response body as text, up to a byte cap: a provider cannot make the host buffer without bound. */

export type LimitedBody = { ok: true; text: string } | { ok: false; tooLarge: true };

/**
 * The body's text, or `tooLarge` as soon as it passes `maxBytes` (declared or counted; the rest is
 * not read and the connection is released). Rejects when the connection breaks or the signal aborts.
 *
 * @example
 * const body = await readLimitedBody(response, 2 * 1024 * 1024);
 */
export async function readLimitedBody(response: Response, maxBytes: number): Promise<LimitedBody> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes || response.body === null) {
    await response.body?.cancel().catch(() => undefined);
    return declared > maxBytes ? { ok: false, tooLarge: true } : { ok: true, text: "" };
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, tooLarge: true };
    }
    chunks.push(value);
  }
  return { ok: true, text: new TextDecoder().decode(Buffer.concat(chunks)) };
}
