/** The CLI as a person runs it against the OAuth fixtures: a real `toolexec` process, and a scripted browser. */
import { spawn } from "node:child_process";
import { BIN } from "../cli/run-cli.js";

export interface OAuthCliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where the CLI runs: the project, and the config home its token files go under. */
export interface CliPlace {
  root: string;
  configHome: string;
}

/** Run the built CLI in `place`; `onLine` sees stdout line by line as it comes. */
export function runOAuthCli(args: string[], place: CliPlace, onLine?: (line: string) => void): Promise<OAuthCliRun> {
  const child = spawn(process.execPath, [BIN, ...args, "--root", place.root], { env: { ...process.env, XDG_CONFIG_HOME: place.configHome }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    const before = stdout;
    stdout += chunk.toString();
    if (onLine) for (const line of stdout.slice(before.lastIndexOf("\n") + 1).split("\n").slice(0, -1)) onLine(line);
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code: code ?? 1, stdout, stderr })));
}

/** The person in the browser: open the authorization URL, take its redirect (the fixture approves at once). */
export async function followAuthorization(url: string): Promise<URL> {
  const approval = await fetch(url, { redirect: "manual" });
  if (approval.status !== 302) throw new Error(`Expected the authorization server to redirect, got HTTP ${approval.status}`);
  return new URL(approval.headers.get("location")!);
}

/**
 * `toolexec auth login <server>` with the browser step scripted: the URL it prints is followed and
 * its redirect brought to the CLI's loopback listener. `page` is what the listener answered, `redirect`
 * the URL the browser was sent to (with the authorization code).
 */
export async function loginWithCli(server: string, place: CliPlace): Promise<OAuthCliRun & { page: Response | undefined; redirect: URL | undefined }> {
  let browser: Promise<{ redirect: URL; page: Response }> | undefined;
  const run = await runOAuthCli(["auth", "login", server], place, (line) => {
    const url = /^\s+(http\S+authorize\S+)$/.exec(line)?.[1];
    // The listener is up before the URL is printed.
    if (url) browser = followAuthorization(url).then(async (redirect) => ({ redirect, page: await fetch(redirect) }));
  });
  const visit = await browser;
  return { ...run, page: visit?.page, redirect: visit?.redirect };
}
