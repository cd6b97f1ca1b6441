/**
 * An execution with the calls made under it, as a tree: a code run's `call_tool` calls, a saved
 * tool's code run and its calls. Sub-calls carry their parent's id as `parentExecutionId`, and a
 * parent's line is written after its children's (a call is logged when it ends).
 */
import type { LoggedRecord } from "./log-record.js";

export interface ExecutionNode {
  record: LoggedRecord;
  /** Sub-calls in the order they started. */
  children: ExecutionNode[];
}

const byStart = (a: ExecutionNode, b: ExecutionNode) => (a.record.time ?? "").localeCompare(b.record.time ?? "");

/** Indexes sub-calls by parent, so each tree is built without scanning the records again. */
export function indexChildren(records: Iterable<LoggedRecord>): Map<string, LoggedRecord[]> {
  const children = new Map<string, LoggedRecord[]>();
  for (const record of records) {
    if (typeof record.parentExecutionId !== "string") continue;
    const siblings = children.get(record.parentExecutionId);
    if (siblings) siblings.push(record);
    else children.set(record.parentExecutionId, [record]);
  }
  return children;
}

/**
 * The tree under `record`; `seen` guards against a line that names itself (or a loop) as parent.
 *
 * @example
 * const tree = buildExecutionTree(root, indexChildren(subCalls));
 */
export function buildExecutionTree(record: LoggedRecord, children: Map<string, LoggedRecord[]>, seen = new Set<string>()): ExecutionNode {
  const id = record.executionId;
  if (typeof id !== "string" || seen.has(id)) return { record, children: [] };
  seen.add(id);
  const nodes = (children.get(id) ?? []).map((child) => buildExecutionTree(child, children, seen));
  return { record, children: nodes.sort(byStart) };
}

/** Every record of a tree, root first, depth first. */
export function flattenTree(node: ExecutionNode): LoggedRecord[] {
  return [node.record, ...node.children.flatMap(flattenTree)];
}
