/** The files driver: the shared contract, today's layout (a key is the file), hand edits announced. */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFileStore } from "../../src/core/store/file-store.js";
import { createTempProject } from "../helpers/temp-project.js";
import { describeStoreContract, nextChange } from "./store-contract.js";

describeStoreContract("files", async () => createFileStore(createTempProject().root));

describe("files store", () => {
  it("keeps a key in the file of that path under its folder: today's layout", async () => {
    const project = createTempProject();
    project.write("tools.json", '{ "tools": [] }\n');
    const store = createFileStore(project.root);
    try {
      expect(await store.get("tools.json")).toBe('{ "tools": [] }\n');
      await store.set(".toolexec/saved-tools/report.js", "code");
      expect(readFileSync(project.path(".toolexec/saved-tools/report.js"), "utf8")).toBe("code");
      expect(await store.list(".toolexec/saved-tools/")).toEqual([".toolexec/saved-tools/report.js"]);
    } finally {
      await store.close();
    }
  });

  it("announces an edit made by hand (another process) once, as external", async () => {
    const project = createTempProject();
    const store = createFileStore(project.root);
    try {
      await store.set("shared/state.json", "1");
      let seen = false;
      const change = nextChange(store, "shared/", (candidate) => candidate.origin === "external").finally(() => (seen = true));
      // The watcher starts on the first subscription and is ready a moment later: edit until it reports one.
      for (let edit = 2; !seen; edit += 1) {
        writeFileSync(project.path("shared/state.json"), String(edit));
        await Promise.race([change, new Promise((resolve) => setTimeout(resolve, 200))]);
      }
      expect(await change).toEqual({ key: "shared/state.json", kind: "set", origin: "external" });
    } finally {
      await store.close();
    }
  });
});
