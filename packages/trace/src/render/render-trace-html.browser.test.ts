import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDemoRun } from './demo-run.test-helper.js';
import { recordMultiRunTrace } from './multi-run.test-helper.js';
import { renderTraceHtml } from './render-trace-html.js';

// Debian's chromium, installed by `.ci/run`; Playwright never downloads a browser here. It runs in
// the loopback-only namespace of scripts/offline.sh, and with every background request off and a
// fresh profile (no first-run tasks, no synced or cached state), so it asks nothing of the network.
const executablePath = '/usr/bin/chromium';
const flags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
// The README image (docs/trace-viewer.png) is the quickstart's own trace, made by
// scripts/trace-screenshot.mjs; this test keeps its screenshot of the trip planner in a temp folder.
const screenshotPath = join(mkdtempSync(join(tmpdir(), 'tiny-trace-shot-')), 'trace-viewer.png');
const hostile = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
const hasChromium = existsSync(executablePath);
if (!hasChromium) {
  console.warn(
    `render-trace-html.browser.test: skipped, ${executablePath} is missing (apt-get install -y chromium; .ci/run installs it).`,
  );
}

describe.skipIf(!hasChromium)('the trace page in headless Chromium', () => {
  let browser: BrowserContext;
  let page: Page;
  let userDataDir: string;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    const { recording } = await recordDemoRun({ pageText: hostile });
    const dir = mkdtempSync(join(tmpdir(), 'tiny-trace-browser-'));
    const file = join(dir, 'trace.html');
    writeFileSync(file, renderTraceHtml(recording, { title: 'Trip planner run' }));
    // A fresh --user-data-dir (Playwright passes it for a persistent context).
    userDataDir = mkdtempSync(join(tmpdir(), 'tiny-trace-profile-'));
    browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      args: flags,
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(pathToFileURL(file).href);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (userDataDir !== undefined) rmSync(userDataDir, { recursive: true, force: true });
  });

  it('shows one section per turn and the run totals', async () => {
    await expect(page.locator('section.turn').count()).resolves.toBe(3);
    await expect(page.locator('h2', { hasText: 'Turn 3' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('.stats').textContent()).resolves.toContain('2 recoveries');
  });

  it('highlights recoveries and deferrals with visible badges', async () => {
    const recovery = page.locator('.badge.recovery', { hasText: 'unknown tool' });
    await expect(recovery.isVisible()).resolves.toBe(true);
    await expect(page.locator('.badge.deferred').first().textContent()).resolves.toContain('approval_required');
  });

  it('draws concurrent calls side by side on separate lanes', async () => {
    const boxes = await page
      .locator('section[data-turn="1"] .bar.tool', { hasText: 'weather' })
      .evaluateAll((bars) =>
        bars.map((bar) => bar.getBoundingClientRect()).map((box) => ({ x: box.x, right: box.right, y: box.y })),
      );
    const [first, second] = boxes as [{ x: number; right: number; y: number }, { x: number; right: number; y: number }];
    expect(boxes).toHaveLength(2);
    // They overlap in time (x) and sit on different lanes (y).
    expect(Math.max(first.x, second.x)).toBeLessThan(Math.min(first.right, second.right));
    expect(first.y).not.toBe(second.y);
  });

  it('expands a tool call to show its arguments', async () => {
    const call = page.locator('details.call[data-call-id="call_w1"]');
    const argumentsBlock = call.locator('pre').first();
    await expect(argumentsBlock.isVisible()).resolves.toBe(false);
    await call.locator('summary').click();
    await expect(argumentsBlock.isVisible()).resolves.toBe(true);
    await expect(argumentsBlock.textContent()).resolves.toContain('"city": "Oslo"');
  });

  it('opens a call from its timeline bar (the inline script runs under the CSP)', async () => {
    const nested = page.locator('details.call[data-call-id="call_p1/1"]');
    await expect(nested.evaluate((element) => element.hasAttribute('open'))).resolves.toBe(false);
    await page.locator('.bar.tool', { hasText: '↳ distance' }).click();
    await expect(nested.evaluate((element) => element.hasAttribute('open'))).resolves.toBe(true);
    await expect(nested.locator('pre').first().textContent()).resolves.toContain('"from": "Oslo"');
  });

  it('shows hostile tool output as text without running it, and loads nothing', async () => {
    const call = page.locator('details.call[data-call-id="call_x1"]');
    await call.locator('summary').click();
    await expect(call.locator('pre', { hasText: 'window.__pwned' }).textContent()).resolves.toBe(hostile);
    await expect(page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('renders a full-page screenshot of the viewer', async () => {
    await page.locator('button[data-action="collapse"]').click();
    await page.locator('details.call[data-call-id="call_w1"] summary').click();
    await page.locator('details.call[data-call-id="call_h1"] summary').click();
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    mkdirSync(join(screenshotPath, '..'), { recursive: true });
    const image = await page.screenshot({ path: screenshotPath, fullPage: true });
    expect(image.byteLength).toBeGreaterThan(10_000);
  });
});

describe.skipIf(!hasChromium)('a multi-run trace in headless Chromium', () => {
  let browser: BrowserContext;
  let page: Page;
  let userDataDir: string;
  let runIds: string[];

  beforeAll(async () => {
    const { recording, firstRunId, secondRunId } = await recordMultiRunTrace();
    runIds = [firstRunId, secondRunId];
    const dir = mkdtempSync(join(tmpdir(), 'tiny-trace-browser-'));
    const file = join(dir, 'trace.html');
    writeFileSync(file, renderTraceHtml(recording, { title: 'Three runs' }));
    userDataDir = mkdtempSync(join(tmpdir(), 'tiny-trace-profile-'));
    browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      args: flags,
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(pathToFileURL(file).href);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (userDataDir !== undefined) rmSync(userDataDir, { recursive: true, force: true });
  });

  it('shows one visible section per run, each with its own end reason and turns', async () => {
    const sections = page.locator('section.run-section');
    await expect(sections.count()).resolves.toBe(2);
    await expect(
      sections.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-run-id'))),
    ).resolves.toEqual(runIds);
    const first = sections.nth(0);
    await expect(first.isVisible()).resolves.toBe(true);
    await expect(first.locator('h2.run-heading .outcome').textContent()).resolves.toBe('final');
    await expect(first.locator('h2.run-heading').textContent()).resolves.toContain('deferred → resumed → final');
    await expect(first.locator('section.turn h2').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^Turn 1 /),
      expect.stringMatching(/^Turn 2 /),
      expect.stringMatching(/^Turn 2, resumed: the decided calls run /),
      expect.stringMatching(/^Turn 3 /),
    ]);
    await expect(sections.nth(1).locator('section.turn').count()).resolves.toBe(2);
    await expect(page.getByText('Before the first turn').count()).resolves.toBe(0);
  });

  it('opens the resumed call from its bar inside its run', async () => {
    const resumed = page.locator('section.run-section').nth(0).locator('section.turn[data-resumed="true"]');
    await resumed.locator('a.bar.tool').first().click();
    await expect(resumed.locator('details.call[data-call-id="c3"]').getAttribute('open')).resolves.not.toBeNull();
  });
});
