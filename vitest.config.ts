import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/real-python-first.ts", "test/setup/test-tools.ts"],
    // Hang guards, not bounds of behaviour: tests that start several real processes need room when
    // both cores are busy with another process too (e.g. `stress-ng --cpu 2`).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests spawn real processes and time deadlines: keep a 2-core machine from oversubscribing.
    maxWorkers: 2,
    typecheck: { enabled: false },
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
