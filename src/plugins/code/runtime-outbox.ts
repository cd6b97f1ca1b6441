/**
 * What the host sends a code runtime over IPC, gathered once per turn of the event loop and sent as
 * one message, in order: each message costs both processes a wake-up (on a 2-core machine, an IPC
 * message and its one-line answer took ~10 µs of CPU on each side alone, ~3 µs each in batches of
 * four), and a burst's runs sent ahead are handed out in pairs (runtime-pool.ts). Async call answers
 * of the same turn travel together as one `replies` message, after the rest.
 */

export interface RuntimeOutbox {
  push(message: object): void;
  /** An async call's answer; `resultJson` is JSON text. */
  reply(call: number, resultJson: string): void;
}

/** `send`: one IPC message: a single message as it is, several as `{ t: "batch", m: [...] }` (runtime/runtime-main.mjs). */
export function createRuntimeOutbox(send: (message: object) => void): RuntimeOutbox {
  let messages: object[] = [];
  let replies: Array<[number, string]> = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batch = messages;
    messages = [];
    if (replies.length > 0) batch.push({ t: "replies", r: replies });
    replies = [];
    send(batch.length === 1 ? batch[0]! : { t: "batch", m: batch });
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  return {
    push(message) {
      messages.push(message);
      schedule();
    },
    reply(call, resultJson) {
      replies.push([call, resultJson]);
      schedule();
    },
  };
}
