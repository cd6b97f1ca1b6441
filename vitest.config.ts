import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/real-python-first.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests spawn real processes and time deadlines: keep a 2-core machine from oversubscribing.
    maxWorkers: 2,
    typecheck: { enabled: false },
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
