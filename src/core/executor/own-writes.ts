/**
 * Remembers the files the executor wrote itself (registry writes), with the tag of what it wrote,
 * so the watcher does not reload a change that is already live: a burst of changes is absorbed
 * when every path in it holds exactly what the executor wrote there. A hand edit in the same
 * burst, or after, makes the tag differ and the reload happens.
 */
import { readFile } from "node:fs/promises";
import { contentTag } from "../registry/content-tag.js";

export interface OwnWrites {
  /** The executor is about to write these files with content of these tags (applied before it resolves). */
  expect(files: ReadonlyArray<{ path: string; tag: string }>): void;
  /** True when every changed path holds what the executor wrote there: no reload needed. */
  absorbs(paths: string[]): Promise<boolean>;
}

async function tagOf(file: string): Promise<string | undefined> {
  try {
    return contentTag(await readFile(file));
  } catch {
    return undefined;
  }
}

export function createOwnWrites(): OwnWrites {
  const written = new Map<string, string>();
  return {
    expect(files) {
      for (const file of files) written.set(file.path, file.tag);
    },
    async absorbs(paths) {
      if (paths.length === 0) return false;
      const tags = await Promise.all(paths.map(async (file) => [file, await tagOf(file)] as const));
      const absorbed = tags.every(([file, tag]) => tag !== undefined && written.get(file) === tag);
      for (const [file] of tags) written.delete(file);
      return absorbed;
    },
  };
}
