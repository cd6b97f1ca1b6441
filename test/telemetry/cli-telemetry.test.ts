/** The CLI's telemetry start: without the SDK packages it says which to install and runs the command anyway. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.js";
import { TOOLEXEC_BIN } from "../helpers/toolexec-bin.mjs";

const REPOSITORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = TOOLEXEC_BIN;
const HIDE_SDK = path.join(REPOSITORY, "test", "fixtures", "telemetry", "hide-otel-sdk.mjs");

it("names the packages to install when OTEL_EXPORTER_OTLP_ENDPOINT is set and the SDK is missing, and still runs the command", async () => {
  const project = createTempProject({ tools: { tools: [] } });
  const result = await execa(process.execPath, ["--import", HIDE_SDK, CLI, "tools", "list", "--root", project.root], {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" },
    reject: false,
  });
  expect(result.exitCode).toBe(0);
  expect(result.stderr).toContain(
    "warning: OTEL_EXPORTER_OTLP_ENDPOINT is set, but the OpenTelemetry SDK is not installed (@opentelemetry/sdk-trace-node is missing). Install it next to toolexec: npm install @opentelemetry/sdk-trace-node @opentelemetry/sdk-trace-base @opentelemetry/sdk-metrics @opentelemetry/resources @opentelemetry/exporter-trace-otlp-proto @opentelemetry/exporter-trace-otlp-http @opentelemetry/exporter-metrics-otlp-http",
  );
});

it("refuses an OTLP protocol it cannot speak with a message naming the ones it can", async () => {
  const project = createTempProject({ tools: { tools: [] } });
  const result = await execa(process.execPath, [CLI, "tools", "list", "--root", project.root], {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
    reject: false,
  });
  expect(result.exitCode).toBe(0);
  expect(result.stderr).toContain("warning: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported by the toolexec CLI; use http/protobuf or http/json");
});
