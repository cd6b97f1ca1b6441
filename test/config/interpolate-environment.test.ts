import { describe, expect, it } from "vitest";
import { hasEnvironmentReference, interpolateEnvironment } from "../../src/core/config/interpolate-environment.js";

describe("interpolateEnvironment", () => {
  const environment = { TOKEN: "abc", EMPTY: "", PORT: "9000" };

  it("replaces ${VAR}, ${env:VAR} and several references in one string", () => {
    expect(interpolateEnvironment("Bearer ${TOKEN}", environment)).toEqual({ ok: true, value: "Bearer abc" });
    expect(interpolateEnvironment("${env:TOKEN}:${PORT}", environment)).toEqual({ ok: true, value: "abc:9000" });
    expect(interpolateEnvironment("no references", environment)).toEqual({ ok: true, value: "no references" });
  });

  it("uses the default of ${VAR:-default} when the variable is unset or empty", () => {
    expect(interpolateEnvironment("${MISSING:-8080}", environment)).toEqual({ ok: true, value: "8080" });
    expect(interpolateEnvironment("${EMPTY:-fallback}", environment)).toEqual({ ok: true, value: "fallback" });
    expect(interpolateEnvironment("${PORT:-1}", environment)).toEqual({ ok: true, value: "9000" });
    expect(interpolateEnvironment("x${MISSING:-}y", environment)).toEqual({ ok: true, value: "xy" });
  });

  it("keeps an empty variable empty, and reports every unset one once", () => {
    expect(interpolateEnvironment("[${EMPTY}]", environment)).toEqual({ ok: true, value: "[]" });
    expect(interpolateEnvironment("${A} ${B} ${A}", environment)).toEqual({ ok: false, missing: ["A", "B"] });
  });

  it("leaves $${...} as a literal ${...} and ignores malformed references", () => {
    expect(interpolateEnvironment("$${TOKEN}", environment)).toEqual({ ok: true, value: "${TOKEN}" });
    expect(interpolateEnvironment("${1BAD} ${} $TOKEN", environment)).toEqual({ ok: true, value: "${1BAD} ${} $TOKEN" });
  });

  it("tells whether a string refers to the environment", () => {
    expect(hasEnvironmentReference("Bearer ${TOKEN}")).toBe(true);
    expect(hasEnvironmentReference("$${TOKEN}")).toBe(false);
    expect(hasEnvironmentReference("plain")).toBe(false);
  });
});
