/**
 * The one suite every store driver passes (like unstorage's testDriver): get/set/delete/list,
 * counters, key checks, change events, close. Each driver's test file calls it with a factory.
 */
import { describe, expect, it } from "vitest";
import type { Store, StoreChange } from "../../src/core/store/store.js";

/** Resolves with the first change `store` announces for `prefix` matching `accept`. */
export function nextChange(store: Store, prefix: string, accept: (change: StoreChange) => boolean = () => true): Promise<StoreChange> {
  return new Promise((resolve) => {
    const undo = store.subscribe(prefix, (change) => {
      if (!accept(change)) return;
      undo();
      resolve(change);
    });
  });
}

export function describeStoreContract(name: string, open: () => Promise<Store>): void {
  describe(`${name} store: the shared contract`, () => {
    it("gets what it set, nothing for an unknown key, and deletes", async () => {
      const store = await open();
      try {
        expect(await store.get("things/a.json")).toBeUndefined();
        await store.set("things/a.json", '{"a":1}');
        await store.set("things/a.json", '{"a":2}');
        expect(await store.get("things/a.json")).toBe('{"a":2}');
        expect(await store.delete("things/a.json")).toBe(true);
        expect(await store.delete("things/a.json")).toBe(false);
        expect(await store.get("things/a.json")).toBeUndefined();
      } finally {
        await store.close();
      }
    });

    it("lists the keys under a prefix, sorted", async () => {
      const store = await open();
      try {
        await store.set("list/b.js", "b");
        await store.set("list/a.js", "a");
        await store.set("list/deeper/c.js", "c");
        await store.set("listed.json", "x");
        expect(await store.list("list/")).toEqual(["list/a.js", "list/b.js", "list/deeper/c.js"]);
        expect(await store.list("list/a")).toEqual(["list/a.js"]);
        expect(await store.list("missing/")).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it("counts atomically, and a counter with a window starts over after it", async () => {
      const store = await open();
      try {
        const counts = await Promise.all(Array.from({ length: 20 }, () => store.increment("counters/calls")));
        expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
        expect(await store.increment("counters/window", 5, { ttlMs: 200 })).toBe(5);
        expect(await store.increment("counters/window", 1, { ttlMs: 200 })).toBe(6);
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(await store.increment("counters/window", 1, { ttlMs: 200 })).toBe(1);
      } finally {
        await store.close();
      }
    });

    it("refuses keys that could leave the store", async () => {
      const store = await open();
      try {
        for (const key of ["../x", "/abs", "a//b", "a/./b", "a b", ""]) await expect(store.get(key)).rejects.toMatchObject({ code: "INVALID_INPUT" });
        await expect(store.set("x", 1 as unknown as string)).rejects.toMatchObject({ code: "INVALID_INPUT" });
      } finally {
        await store.close();
      }
    });

    it("announces its own writes and deletions to subscribers of the prefix, with its id", async () => {
      const store = await open();
      try {
        const others: StoreChange[] = [];
        const undo = store.subscribe("elsewhere/", (change) => others.push(change));
        const set = nextChange(store, "watched/");
        await store.set("watched/one.json", "1");
        expect(await set).toEqual({ key: "watched/one.json", kind: "set", origin: store.instanceId });
        const deleted = nextChange(store, "watched/", (change) => change.kind === "delete");
        await store.delete("watched/one.json");
        expect(await deleted).toMatchObject({ key: "watched/one.json", kind: "delete" });
        undo();
        expect(others).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it("refuses every operation once closed", async () => {
      const store = await open();
      await store.close();
      await expect(store.get("a")).rejects.toMatchObject({ code: "EXECUTOR_CLOSED" });
      await expect(store.set("a", "b")).rejects.toMatchObject({ code: "EXECUTOR_CLOSED" });
    });
  });
}
