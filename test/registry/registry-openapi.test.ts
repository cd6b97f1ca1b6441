/** docs/registry-api.openapi.json describes exactly the routes the management API serves. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MANAGEMENT_ROUTES } from "../../src/serve/management-api/management-routes.js";

const OPENAPI = JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "docs", "registry-api.openapi.json"), "utf8")) as {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string }>>;
  security: unknown[];
};
const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

describe("docs/registry-api.openapi.json", () => {
  it("lists every route, with its operation, and no other", () => {
    const documented = Object.entries(OPENAPI.paths)
      .flatMap(([route, item]) => Object.entries(item).filter(([method]) => METHODS.has(method)).map(([method, operation]) => `${method.toUpperCase()} ${route} ${operation.operationId}`))
      .sort();
    const served = MANAGEMENT_ROUTES.map((route) => `${route.method} ${route.path} ${route.operation}`).sort();
    expect(documented).toEqual(served);
  });

  it("requires the API key everywhere", () => {
    expect(OPENAPI.openapi).toBe("3.1.0");
    expect(OPENAPI.security).toEqual([{ apiKey: [] }]);
  });
});
