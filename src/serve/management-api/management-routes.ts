/**
 * The routes of the registry management API, as data: the router dispatches on this table and the
 * OpenAPI document (docs/registry-api.openapi.json) is tested against it, so the two cannot drift.
 */

/** Where the management API is mounted on the served port. */
export const MANAGEMENT_API_PATH = "/api/tools";

export type ManagementOperation = "listTools" | "createTool" | "getTool" | "replaceTool" | "patchTool" | "deleteTool";

export interface ManagementRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** `/api/tools` or `/api/tools/{name}`. */
  path: string;
  operation: ManagementOperation;
}

export const MANAGEMENT_ROUTES: readonly ManagementRoute[] = [
  { method: "GET", path: MANAGEMENT_API_PATH, operation: "listTools" },
  { method: "POST", path: MANAGEMENT_API_PATH, operation: "createTool" },
  { method: "GET", path: `${MANAGEMENT_API_PATH}/{name}`, operation: "getTool" },
  { method: "PUT", path: `${MANAGEMENT_API_PATH}/{name}`, operation: "replaceTool" },
  { method: "PATCH", path: `${MANAGEMENT_API_PATH}/{name}`, operation: "patchTool" },
  { method: "DELETE", path: `${MANAGEMENT_API_PATH}/{name}`, operation: "deleteTool" },
];

export type MatchedRoute = { ok: true; operation: ManagementOperation; name?: string } | { ok: false; status: 404 | 405; allow?: string[] };

/** The route for a request under {@link MANAGEMENT_API_PATH}; `pathname` is still percent-encoded. */
export function matchManagementRoute(method: string, pathname: string): MatchedRoute {
  const rest = pathname.slice(MANAGEMENT_API_PATH.length);
  let name: string | undefined;
  if (rest !== "" && rest !== "/") {
    if (!rest.startsWith("/") || rest.indexOf("/", 1) !== -1) return { ok: false, status: 404 };
    try {
      name = decodeURIComponent(rest.slice(1));
    } catch {
      return { ok: false, status: 404 };
    }
  }
  const path = name === undefined ? MANAGEMENT_API_PATH : `${MANAGEMENT_API_PATH}/{name}`;
  const candidates = MANAGEMENT_ROUTES.filter((route) => route.path === path);
  const route = candidates.find((candidate) => candidate.method === method);
  if (!route) return { ok: false, status: 405, allow: candidates.map((candidate) => candidate.method) };
  return name === undefined ? { ok: true, operation: route.operation } : { ok: true, operation: route.operation, name };
}
