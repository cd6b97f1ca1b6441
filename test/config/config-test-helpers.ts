/** Helpers shared by the config tests: load a temp project and read its ConfigError with stable paths. */
import { realpathSync } from "node:fs";
import { expect } from "vitest";
import { ConfigError, isConfigError } from "../../src/index.js";
import { loadProjectConfig, type ProjectConfigOptions } from "../../src/config.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";

/** Replace the project's temp folder (and its real path) with `<root>`, so snapshots are stable. */
export function withoutRoot(text: string, root: string): string {
  const real = realpathSync(root);
  return text.split(real).join("<root>").split(root).join("<root>");
}

/** Load the project's config, expecting a ConfigError; returns it. */
export async function loadConfigError(project: TempProject, options: Omit<ProjectConfigOptions, "root"> = {}): Promise<ConfigError> {
  const error: unknown = await loadProjectConfig({ root: project.root, ...options }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(isConfigError(error), "expected loadProjectConfig to reject with a ConfigError").toBe(true);
  return error as ConfigError;
}

/** The user-facing message of the ConfigError that loading the project throws, with `<root>` for the temp folder. */
export async function configErrorText(project: TempProject, options: Omit<ProjectConfigOptions, "root"> = {}): Promise<string> {
  const error = await loadConfigError(project, options);
  return withoutRoot(error.message, project.root);
}

/** A project whose tools.json has one shell tool `echo` with `extra` merged into the entry. */
export function projectWithOneTool(extra: Record<string, unknown> = {}): TempProject {
  const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh", extra)] } });
  project.useFixtures("echo.sh");
  return project;
}
