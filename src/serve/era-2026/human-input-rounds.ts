/**
 * `request_human_input` for a 2026-07-28 client, as multi-round-trip requests (MRTR): the first
 * `tools/call` is answered `inputRequired` with the question as an elicitation form and a sealed
 * `requestState`; the client asks its person and sends the call again with the answer. The retry
 * may reach any replica: all it needs travels in the request (the state is HMAC-sealed with the
 * replicas' shared key and bound to these very arguments), nothing waits in a process's memory.
 * The answered retry then runs through `executor.callTool` like any call (validation, log, events).
 */
import { createHash } from "node:crypto";
import { CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, type InputRequiredResult, type ServerContext } from "@modelcontextprotocol/server";
import { HUMAN_INPUT_TOOL_NAME, type CallerInfo, type PersonAnswer } from "../../index.js";
import { questionForm } from "../client-caller.js";
import { protocolError } from "../protocol-error.js";

/** The key of the question in `inputRequests` and of its answer in `inputResponses`. */
export const HUMAN_INPUT_REQUEST_KEY = "request_human_input";

/** What the sealed `requestState` carries: which call the answer belongs to. */
export interface HumanInputState {
  tool: string;
  /** SHA-256 of the call's arguments: an answer cannot be moved to another question. */
  arguments: string;
}

const INVALID_PARAMS = -32602;

const digestOf = (args: unknown) => createHash("sha256").update(JSON.stringify(args ?? {})).digest("base64url");

/** The question and its options when the arguments are askable; else the pipeline answers them (INVALID_INPUT). */
function questionOf(args: Record<string, unknown>): { question: string; options?: string[] } | undefined {
  const { question, options } = args;
  if (typeof question !== "string" || question === "") return undefined;
  if (options === undefined) return { question };
  if (!Array.isArray(options) || options.length === 0 || !options.every((option) => typeof option === "string")) return undefined;
  return { question, options: options as string[] };
}

/** Whether the 2026 client said, in this request's envelope, that it can elicit. */
export function canElicit(context: ServerContext): boolean {
  const capabilities = context.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] as { elicitation?: unknown } | undefined;
  return capabilities?.elicitation !== undefined;
}

export type HumanInputRound = { kind: "ask"; result: InputRequiredResult } | { kind: "answered"; ask: NonNullable<CallerInfo["ask"]> } | { kind: "not-askable" };

/**
 * Decides one round of a `request_human_input` call from a client that can elicit.
 *
 * @example
 * const round = await humanInputRound(args, context, codec.mint);
 * if (round.kind === "ask") return round.result;
 */
export async function humanInputRound(args: Record<string, unknown>, context: ServerContext, mint: (state: HumanInputState, context: ServerContext) => Promise<string>): Promise<HumanInputRound> {
  const asked = questionOf(args);
  if (!asked) return { kind: "not-askable" };
  const digest = digestOf(args);
  const state = context.mcpReq.requestState<HumanInputState>();
  const reply = inputResponse(context.mcpReq.inputResponses, HUMAN_INPUT_REQUEST_KEY);
  if (state !== undefined) {
    if (typeof state !== "object" || state.tool !== HUMAN_INPUT_TOOL_NAME || state.arguments !== digest) {
      throw protocolError(INVALID_PARAMS, `This requestState belongs to another call: send the ${HUMAN_INPUT_TOOL_NAME} call again with the arguments it was issued for`);
    }
    if (reply.kind === "elicit") {
      const answer: PersonAnswer = reply.action === "accept" ? { action: "accept", answer: String(reply.content?.answer ?? "") } : { action: reply.action };
      return { kind: "answered", ask: async () => answer };
    }
  }
  const requestState = await mint({ tool: HUMAN_INPUT_TOOL_NAME, arguments: digest }, context);
  return { kind: "ask", result: inputRequired({ inputRequests: { [HUMAN_INPUT_REQUEST_KEY]: inputRequired.elicit(questionForm(asked.question, asked.options)) }, requestState }) };
}
