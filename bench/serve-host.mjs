// A serving process for bench/serve-overhead.mjs, as `toolexec serve` runs: `node serve-host.mjs <root> stdio|http|http-stateless`.
// Over HTTP it prints its URL on stdout; it ends when its stdin closes.
import { createExecutor } from "../dist/index.js";
import { serveHttp, serveStdio } from "../dist/serve.js";

const [root, mode] = process.argv.slice(2);
const executor = await createExecutor({ root, toolsConfig: false, watch: false, logDir: false, logger: { debug() {}, info() {}, warn() {}, error: (message) => process.stderr.write(`${message}\n`) } });
if (mode === "http" || mode === "http-stateless") {
  const serving = await serveHttp(executor, { stateless: mode === "http-stateless" });
  process.stdout.write(`${serving.url}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once("end", resolve));
  await serving.close();
} else {
  await (await serveStdio(executor)).closed;
}
await executor.close();
process.exit(0);
