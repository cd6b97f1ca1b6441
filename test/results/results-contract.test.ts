/**
 * The results plugin passes the shared plugin contract. Its slow call is a read from a store that
 * answers late, as a store shared by replicas would: the read must end with the call's signal.
 */
import { createResultStore, type StoredResult } from "../../src/core/results/result-store.js";
import { resultsPlugin } from "../../src/plugins/results/results-plugin.js";
import { testPluginContract } from "../../src/testing.js";
import { deferred } from "../helpers/deferred.js";

const memory = createResultStore();
const handle = memory.createHandle();
memory.put({ handle, tool: "big", value: "a stored text", text: "a stored text", maxChars: 5, scope: undefined });
const SLOW_HANDLE = "r_answersLate";

/** Resolved each time a read of the slow handle reaches the store. */
let slowReadArrived = deferred();

const lateStore = {
  async get(asked: string, scope: string | undefined): Promise<StoredResult | undefined> {
    if (asked !== SLOW_HANDLE) return memory.get(asked, scope);
    slowReadArrived.resolve();
    // A store that never answers this one: only the call's signal (or close) ends the read.
    return new Promise<never>(() => {});
  },
};

testPluginContract("results", {
  plugin: () => resultsPlugin({ store: lateStore }),
  entries: () => [],
  quickCall: { name: "read_result", arguments: { handle } },
  slowCall: {
    name: "read_result",
    arguments: { handle: SLOW_HANDLE },
    started: async () => {
      await slowReadArrived.promise;
      slowReadArrived = deferred();
    },
  },
});
