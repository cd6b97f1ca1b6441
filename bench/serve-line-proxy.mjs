// The floor under any stdio proxy, for bench/serve-overhead.mjs: a line proxy with no MCP at all —
// each line `JSON.parse`d, a tools/call's `everything__` prefix taken off, `JSON.stringify`d and
// written on, each way. What it costs over a direct call is two more process wake-ups and little else.
// Usage: node bench/serve-line-proxy.mjs <command> [args…]  — the upstream server on its stdio
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const upstream = spawn(process.argv[2], process.argv.slice(3), { stdio: ["pipe", "pipe", "ignore"] });
createInterface({ input: upstream.stdout }).on("line", (line) => process.stdout.write(`${JSON.stringify(JSON.parse(line))}\n`));
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.method === "tools/call") message.params.name = message.params.name.replace(/^everything__/, "");
  upstream.stdin.write(`${JSON.stringify(message)}\n`);
});
process.stdin.once("end", () => {
  upstream.stdin.end();
  process.exit(0);
});
