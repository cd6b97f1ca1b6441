/**
 * How a person runs this CLI again, for the commands hints print: `toolexec` only when their shell
 * finds this very program on PATH (a global install); otherwise `npx toolexec`, which works from a
 * project that installed toolexec locally (where a bare `toolexec` is "command not found"). The
 * library's own hints use it too (AUTH_REQUIRED's login command, tool trust's approve command): in a
 * host app, the running script is the app, so they say `npx toolexec`.
 */
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";

function realPath(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/**
 * @example
 * `Run \`${cliInvocation()} servers\` for details.`; // "Run `npx toolexec servers` for details." in a local install
 */
export function cliInvocation(environment: NodeJS.ProcessEnv = process.env, script: string | undefined = process.argv[1]): string {
  // Asked for every hint a message carries: the PATH is searched once per PATH and script.
  const key = `${environment.PATH ?? ""}\0${script ?? ""}`;
  let known = answers.get(key);
  if (known === undefined) {
    if (answers.size >= MAX_REMEMBERED) answers.clear();
    answers.set(key, (known = findInvocation(environment, script)));
  }
  return known;
}

const answers = new Map<string, string>();
const MAX_REMEMBERED = 16;

function findInvocation(environment: NodeJS.ProcessEnv, script: string | undefined): string {
  const running = script === undefined ? undefined : realPath(script);
  if (running === undefined) return "npx toolexec";
  for (const folder of (environment.PATH ?? "").split(path.delimiter)) {
    // npx and `npm run` put the project's node_modules/.bin on PATH for the run only: not the user's shell.
    if (folder === "" || path.basename(folder) === ".bin") continue;
    const candidate = path.join(folder, "toolexec");
    if (existsSync(candidate) && realPath(candidate) === running) return "toolexec";
  }
  return "npx toolexec";
}
