/**
 * The web console in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
 * sign in with the token, see the servers, search the tools, call one from the playground and see
 * its result, see that call among the executions, and approve a quarantined tool. A screenshot of
 * each page is saved under test-results/console/ and its path printed.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, hasChromium, SCREENSHOTS, serveConsoleProject, type ServedConsole } from "./console-test-helpers.js";

const TOKEN = "console-test-token-5b1f0e";
if (!hasChromium) console.warn(`Skipping the console's browser tests: ${CHROMIUM} is not installed (apt-get install chromium; CI installs it)`);

describe.skipIf(!hasChromium)("the web console in Chromium", () => {
  let served: ServedConsole;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    served = await serveConsoleProject({ console: {}, token: TOKEN });
    browser = await chromium.launch({ executablePath: CHROMIUM });
    page = await browser.newPage();
    // A CSP violation or a script error is a failure of the page, even when the flow still passes.
    // (The 401 that opens the sign-in dialog is the flow itself.)
    page.on("console", (message) => message.type() === "error" && !message.text().includes("status of 401") && consoleErrors.push(message.text()));
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const screenshot = async (name: string) => {
    const file = path.join(SCREENSHOTS, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`console screenshot: ${file}`);
  };

  it("asks for the token, then shows the servers with their state and tool counts", async () => {
    await page.goto(`${served.origin}/console`);
    await page.waitForSelector("#login[open]");
    await page.fill("#login-token", TOKEN);
    await page.click("#login-form button[type=submit]");
    const row = page.locator('tr[data-server="docs"]');
    await row.waitFor();
    expect(await row.locator("td").nth(1).textContent()).toBe("connected");
    // Two tools listed: search is held by trust.
    expect(await row.locator("td").nth(3).textContent()).toBe("2");
    expect(page.url()).not.toContain(TOKEN);
    await screenshot("servers");
  });

  it("searches the tools and shows a tool's schema", async () => {
    await page.click('nav a[data-page="tools"]');
    await page.waitForSelector("#tool-search");
    expect(await page.locator("#tool-list > li").count()).toBe(4); // two of docs, echo, read_result
    await page.fill("#tool-search", "echo arguments");
    await expect.poll(() => page.locator("#tool-list > li").count()).toBe(1);
    const item = page.locator('#tool-list > li[data-tool="echo"]');
    await item.locator("summary").click();
    expect(await item.locator("pre").first().textContent()).toContain('"message"');
    await screenshot("tools");
  });

  it("calls a tool from a form made from its schema and shows the result", async () => {
    await page.goto(`${served.origin}/console#playground/echo`);
    await page.waitForSelector("#field-message");
    await page.fill("#field-message", "hello from Chromium");
    await page.fill("#field-times", "3");
    await page.selectOption("#field-loud", "true");
    await page.selectOption("#field-tone", '"happy"');
    await page.fill("#field-tags", '["a", "b"]');
    await page.click("#playground-call");
    const result = page.locator("#playground-result pre.result-value");
    await result.waitFor();
    expect(JSON.parse((await result.textContent())!)).toEqual({ message: "hello from Chromium", times: 3, loud: true, tone: "happy", tags: ["a", "b"] });
    await screenshot("playground");
  });

  it("shows that call among the recent executions with its timeline", async () => {
    await page.click('nav a[data-page="executions"]');
    const call = page.locator("li.execution").filter({ hasText: "echo" });
    // The log is written behind the calls (within 200 ms): refresh until the call's line is there.
    for (let attempt = 0; (await call.count()) === 0; attempt++) {
      if (attempt === 100) throw new Error("the playground's call never reached the executions page");
      await page.click("#executions-refresh");
      await page.waitForLoadState();
    }
    await call.first().locator("summary").first().click();
    expect(await call.first().locator(".timeline-bar").count()).toBe(1);
    await screenshot("executions");
  });

  it("approves a quarantined tool, which is then listed", async () => {
    await page.click('nav a[data-page="quarantine"]');
    const held = page.locator('li.held-tool[data-tool="docs__search"]');
    await held.waitFor();
    expect(await held.textContent()).toContain("example.com");
    await screenshot("quarantine");
    await held.locator("button.approve").click();
    await expect.poll(async () => (await page.locator("#quarantine-status").textContent()) ?? "").toMatch(/^Approved/);
    expect(await page.locator("li.held-tool").count()).toBe(0);
    expect((await served.executor.listTools()).map((tool) => tool.name)).toContain("docs__search");
    await screenshot("quarantine-approved");
  });

  it("ran without a script error or a Content-Security-Policy violation", () => {
    expect(consoleErrors).toEqual([]);
  });
});
