/**
 * One fault server per transport behind the same small interface, so the resilience suite
 * (resilience-suite.ts) runs the same scenarios over stdio, Streamable HTTP and legacy SSE.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { eventually, fixtureLog, freePort, isAlive, startFixtureServer, stdioFixture, type RunningServer } from "./mcp-test-helpers.js";

export interface FaultServer {
  /** The mcp.json entry that reaches this server, with the scenario's extra keys (timeoutMs, retry...). */
  entry: Record<string, unknown>;
  log: ReturnType<typeof fixtureLog>;
  /** Kill the server process the executor talks to, and wait until it is gone. */
  kill(): Promise<void>;
  /** Bring the server back after `kill()` (stdio: nothing to do, the executor respawns it). */
  restart(): Promise<void>;
  /** Kill the server and keep it down: it refuses every new connection. */
  keepDown(): Promise<void>;
  /** The pid of the server process serving now. */
  pid(): number;
  /** Connections the server side saw: stdio processes started, or remote sessions initialized. */
  connections(): number;
  /** Wait until the connection the executor reset is really gone (stdio: the old process exited). */
  connectionGone(index: number): Promise<void>;
}

export interface TransportDriver {
  /** How tests name it. */
  name: string;
  /** `connectedTransport` in `servers()` and `transport` in `server:connected`. */
  kind: "stdio" | "http" | "sse";
  /** The `reason` of `server:disconnected` when the server dies (or restarts) between calls. */
  droppedReason: RegExp;
  /** The message of a call whose three attempts (two retries) all met a server kept down. */
  downMessage: RegExp;
  /**
   * Whether an answer to a request never sent resets the connection. Not on stdio while one call
   * is under way: the answer is that call's, and respawning the process would cost more.
   */
  unknownReplyResets: boolean;
  start(extra?: Record<string, unknown>): Promise<FaultServer>;
}

const startedPids = (log: ReturnType<typeof fixtureLog>) => log.events().filter((event) => event.event === "started").map((event) => event.pid);
const sessionCount = (log: ReturnType<typeof fixtureLog>) => log.events().filter((event) => event.event === "session").length;

/** The stdio fixture: the executor spawns it; a killed one is respawned by the executor itself. */
export const stdioDriver: TransportDriver = {
  name: "stdio",
  kind: "stdio",
  droppedReason: /^Server "fixture" exited \(killed by SIGKILL\)$/,
  downMessage: /^Server "fixture" exited with code 1: down on purpose; gave up after 3 attempts$/,
  unknownReplyResets: false,
  async start(extra = {}) {
    const log = fixtureLog();
    const down = path.join(path.dirname(log.file), "down");
    const base = stdioFixture(log.file, extra);
    const entry = { ...base, env: { ...base.env, FIXTURE_DOWN: down } };
    const pid = () => {
      const pids = startedPids(log);
      if (pids.length === 0) throw new Error("the stdio fixture has not started");
      return pids[pids.length - 1]!;
    };
    const kill = async () => {
      const current = pid();
      process.kill(current, "SIGKILL");
      await eventually(() => !isAlive(current), 5_000, "the killed stdio server gone");
    };
    return {
      entry,
      log,
      kill,
      restart: async () => undefined,
      async keepDown() {
        writeFileSync(down, "");
        await kill();
      },
      pid,
      connections: () => startedPids(log).length,
      connectionGone: (index) => eventually(() => !isAlive(startedPids(log)[index]!), 5_000, "the old server process gone"),
    };
  },
};

/** A fixture over HTTP on a fixed port, so a restarted server answers at the same URL. */
function remoteDriver(kind: "http" | "sse", name: string, droppedReason: RegExp, downMessage: RegExp): TransportDriver {
  return {
    name,
    kind,
    droppedReason,
    downMessage,
    unknownReplyResets: true,
    async start(extra = {}) {
      const log = fixtureLog();
      const port = await freePort();
      let running: RunningServer | undefined = await startFixtureServer(kind, { port, log: log.file });
      const url = running.url;
      const kill = async () => {
        await running?.stop();
        running = undefined;
      };
      return {
        entry: { type: kind, url, ...extra },
        log,
        kill,
        async restart() {
          running = await startFixtureServer(kind, { port, log: log.file });
        },
        keepDown: kill,
        pid() {
          if (!running) throw new Error(`the ${name} fixture is down`);
          return running.process.pid!;
        },
        connections: () => sessionCount(log),
        // The server forgets a reset session by itself; nothing on the server side to wait for.
        connectionGone: async () => undefined,
      };
    },
  };
}

export const httpDriver = remoteDriver(
  "http",
  "Streamable HTTP",
  // Whether the stream's reconnection meets the stopped server or the restarted one is a race.
  /^Server "fixture" lost the session \((fetch failed|HTTP 404)\); it may have restarted$/,
  /^Server "fixture" is unreachable \(ECONNREFUSED\); gave up after 3 attempts$/,
);
export const sseDriver = remoteDriver(
  "sse",
  "legacy SSE",
  /^Server "fixture" closed its SSE stream \(it may have restarted\)$/,
  /^Server "fixture" is unreachable \(ECONNREFUSED\); gave up after 3 attempts$/,
);
