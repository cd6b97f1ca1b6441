/**
 * What the lock file remembers of one approved tool: a fingerprint over everything a model reads of
 * it (name, description, schemas, annotations), plus the description itself and one hash per part,
 * so a change can be shown as what changed rather than as two opaque hashes.
 */
import type { ServerTool } from "../tool-definitions.js";
import { canonicalHash } from "./canonical-json.js";

export interface LockedTool {
  /** Hash of the canonical JSON of `{ name, description, inputSchema, outputSchema, annotations }`. */
  fingerprint: string;
  description: string;
  inputSchema: string;
  outputSchema?: string;
  annotations?: string;
}

/**
 * @example
 * fingerprintTool(serverTool); // { fingerprint: "sha256-…", description: "Search the docs.", inputSchema: "sha256-…" }
 */
export function fingerprintTool(tool: ServerTool): LockedTool {
  const { description, inputSchema, outputSchema, annotations } = tool.definition;
  return {
    fingerprint: canonicalHash({ name: tool.tool, description, inputSchema, outputSchema: outputSchema ?? null, annotations: annotations ?? null }),
    description,
    inputSchema: canonicalHash(inputSchema),
    ...(outputSchema === undefined ? {} : { outputSchema: canonicalHash(outputSchema) }),
    ...(annotations === undefined ? {} : { annotations: canonicalHash(annotations) }),
  };
}
