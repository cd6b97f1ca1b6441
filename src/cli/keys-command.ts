/**
 * `toolexec keys create|list|revoke`: the scoped API keys `serve --http` accepts, kept in the
 * project's store as hashes (src/serve/identity/api-keys.ts). A key is printed once, at creation.
 */
import type { Store } from "../index.js";
import type { CommandContext } from "./command-context.js";
import { selectProjectFiles } from "./project-options.js";
import { CliError, UsageError } from "./usage-error.js";

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--expires`: whole milliseconds, or a duration (`30m`, `12h`, `30d`).
 *
 * @example
 * parseLifetime("30d", "keys create"); // 2592000000
 */
export function parseLifetime(text: string, command: string): number {
  const duration = /^(\d+)(ms|s|m|h|d|w)?$/.exec(text.trim());
  const ms = duration ? Number(duration[1]) * UNITS[duration[2] ?? "ms"]! : Number.NaN;
  if (!(ms > 0)) throw new UsageError(`--expires expects milliseconds or a duration (30m, 12h, 30d), more than 0, got ${JSON.stringify(text)}`, command);
  return ms;
}

/** The project's store (`--store`, else its files), through an executor that reads no config and starts nothing. */
async function withStore<Result>(context: CommandContext, use: (store: Store) => Promise<Result>): Promise<Result> {
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const executor = await context.library.createExecutor({
    root: project.root,
    toolsConfig: false,
    mcpConfig: false,
    logDir: false,
    watch: false,
    ...(context.values.store === undefined ? {} : { store: context.values.store }),
  });
  try {
    return await use(executor.store);
  } finally {
    await executor.close();
  }
}

export async function runKeysCreate(context: CommandContext): Promise<number> {
  const { values, command, output } = context;
  if (values.name === undefined || values.name.trim() === "") throw new UsageError("--name is required: a label to tell the key by", command);
  const serve = await import("../serve.js");
  if (values.tier !== undefined && !(serve.TIERS as readonly string[]).includes(values.tier)) throw new UsageError(`--tier expects read, write or destructive, got ${JSON.stringify(values.tier)}`, command);
  const { toolPatternProblem } = await import("../config.js");
  const scopes = values.scope ?? [];
  for (const scope of scopes) {
    const problem = scope === serve.OPERATOR_SCOPE ? undefined : toolPatternProblem(scope);
    if (problem) throw new UsageError(`--scope ${problem}`, command);
  }
  const created = await withStore(context, (store) =>
    serve.createApiKey(store, {
      name: values.name!,
      ...(values.profile === undefined ? {} : { profile: values.profile }),
      scopes,
      ...(values.tier === undefined ? {} : { tier: values.tier as "read" }),
      ...(values.expires === undefined ? {} : { expiresInMs: parseLifetime(values.expires, command) }),
    }),
  );
  if (values.json) output.out(JSON.stringify({ id: created.id, key: created.key }));
  else {
    output.out(created.key);
    output.err(`Created key ${created.id} (${created.record.tier}${created.record.expires ? `, expires ${created.record.expires}` : ""}). It is shown this once: only its hash is stored. Send it as Authorization: Bearer <key>.`);
  }
  return 0;
}

export async function runKeysList(context: CommandContext): Promise<number> {
  const serve = await import("../serve.js");
  const records = await withStore(context, (store) => serve.listApiKeys(store));
  const shown = records.map(({ hash: _hash, ...record }) => record);
  if (context.values.json) {
    context.output.out(JSON.stringify({ keys: shown }, null, 2));
    return 0;
  }
  if (shown.length === 0) context.output.out("No API keys (toolexec keys create --name <label>)");
  for (const key of shown) {
    const state = key.revoked ? `revoked ${key.revoked}` : key.expires && Date.parse(key.expires) <= Date.now() ? `expired ${key.expires}` : key.expires ? `expires ${key.expires}` : "no expiry";
    context.output.out(`${key.id}  ${key.name}  tier ${key.tier}${key.profile ? `  profile ${key.profile}` : ""}${key.scopes.length ? `  scopes ${key.scopes.join(",")}` : ""}  ${state}`);
  }
  return 0;
}

export async function runKeysRevoke(context: CommandContext): Promise<number> {
  const id = context.positionals[0]!;
  const serve = await import("../serve.js");
  const revoked = await withStore(context, (store) => serve.revokeApiKey(store, id));
  if (!revoked) throw new CliError(`No API key with id "${id}" (toolexec keys list shows them)`);
  context.output.out(`Revoked key ${id}`);
  return 0;
}
