/**
 * What the lock file remembers of one approved tool: a fingerprint over everything a model reads of
 * it (name, description, schemas, annotations), plus the description itself and one hash per part,
 * so a change can be shown as what changed rather than as two opaque hashes.
 */
import type { ServerTool } from "../tool-definitions.js";
import { canonicalHash } from "./canonical-json.js";

export interface LockedTool {
  /** Hash of the canonical JSON of `{ name, description, inputSchema, outputSchema?, annotations? }`, the last three as their hashes. */
  fingerprint: string;
  description: string;
  inputSchema: string;
  outputSchema?: string;
  annotations?: string;
}

/** A server's tools stay the same objects until its list changes: each is hashed once, not at every registry rebuild. */
const fingerprints = new WeakMap<ServerTool, LockedTool>();

/**
 * @example
 * fingerprintTool(serverTool); // { fingerprint: "sha256-…", description: "Search the docs.", inputSchema: "sha256-…" }
 */
export function fingerprintTool(tool: ServerTool): LockedTool {
  let fingerprint = fingerprints.get(tool);
  if (fingerprint === undefined) fingerprints.set(tool, (fingerprint = computeFingerprint(tool)));
  return fingerprint;
}

function computeFingerprint(tool: ServerTool): LockedTool {
  const { description, inputSchema, outputSchema, annotations } = tool.definition;
  const parts = {
    description,
    inputSchema: canonicalHash(inputSchema),
    ...(outputSchema === undefined ? {} : { outputSchema: canonicalHash(outputSchema) }),
    ...(annotations === undefined ? {} : { annotations: canonicalHash(annotations) }),
  };
  // Over the parts' hashes: each schema is canonicalized once, and the fingerprint still covers all of it.
  return { fingerprint: canonicalHash({ name: tool.tool, ...parts }), ...parts };
}
