import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadReplayFixture, type ReplayServer, startReplayServer } from '@tiny/provider-tests';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { modelFromEnv, SCRIPTED_RECEIPT_EMAIL } from './agent.js';
import { buildPage } from './build-page.js';
import { startWebChat, type WebChat } from './web-chat.js';

// Debian's chromium (installed by `.ci/run`); Playwright never downloads a browser. It runs in the
// loopback-only namespace of scripts/offline.sh with every background request off and a fresh
// profile, the same flags as @tiny/trace's browser test. The page talks to the real server on
// 127.0.0.1 (port 0), which runs the real harness on the embedded scripted model.
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
declare module 'vitest' {
  interface TaskMeta {
    /** The screenshots a test wrote (also attached with `annotate` and printed). */
    screenshots?: string[];
  }
}

// `WEB_CHAT_README_SCREENSHOT=1 pnpm --filter web-chat test` also refreshes the README's image.
const readmeScreenshot = fileURLToPath(new URL('../screenshot.png', import.meta.url));
const hasChromium = existsSync(executablePath);
if (!hasChromium) {
  console.warn(
    `web-chat.browser.test: skipped, ${executablePath} is missing (apt-get install -y chromium; .ci/run installs it).`,
  );
}

describe.skipIf(!hasChromium)('the web chat page (useChat) in headless Chromium', () => {
  let browser: BrowserContext;
  let chat: WebChat;
  let userDataDir: string;
  let publicDir: string;
  let page: Page;
  let shots: string;
  // The same server on a real adapter: a local /v1/messages endpoint, replayed on 127.0.0.1.
  let messagesServer: ReplayServer;
  let localChat: WebChat;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    shots = mkdtempSync(join(tmpdir(), 'tiny-web-chat-shots-'));
    // The same esbuild bundle `pnpm build` writes, into a scratch folder.
    publicDir = mkdtempSync(join(tmpdir(), 'tiny-web-chat-page-'));
    await buildPage(publicDir);
    chat = await startWebChat({ publicDir });
    messagesServer = await startReplayServer(
      loadReplayFixture(new URL('./__fixtures__/local-messages-run.json', import.meta.url)),
    );
    const local = modelFromEnv({ ANTHROPIC_BASE_URL: `${messagesServer.url}/v1` });
    localChat = await startWebChat({ publicDir, model: local.model, modelDescription: local.description });
    userDataDir = mkdtempSync(join(tmpdir(), 'tiny-web-chat-profile-'));
    browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      args: flags,
      headless: true,
      viewport: { width: 900, height: 760 },
    });
    // Waits are for the page's own state (no timed assertions); this bound only nets a hung page on a
    // loaded 2-core machine, under the file's 120 s test timeout.
    browser.setDefaultTimeout(90_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await chat?.close();
    await localChat?.close();
    await messagesServer?.close();
    for (const dir of [userDataDir, publicDir]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh page (a fresh useChat conversation) with its requests and console problems recorded. */
  async function openChat(url = chat.url): Promise<Page> {
    page = await browser.newPage();
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(url);
    await page.getByText('tiny web chat').waitFor();
    return page;
  }

  async function send(text: string): Promise<void> {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  /** Waits for `target` to appear; fails at once with the page's error when the chat shows one instead. */
  async function reach(target: Locator): Promise<void> {
    const error = page.getByTestId('error');
    await target.or(error).first().waitFor();
    if ((await error.count()) > 0) throw new Error(`the page shows an error: ${await error.textContent()}`);
  }

  /** Waits until the chat is idle again (the stream finished, no automatic resend pending). */
  const idle = () => page.locator('[data-testid="status"][data-status="ready"]').waitFor();

  async function screenshot(context: TestContext, name: string): Promise<void> {
    const path = join(shots, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    context.task.meta.screenshots = [...(context.task.meta.screenshots ?? []), path];
    console.log(`web-chat screenshot: ${path}`);
    await context.annotate(`screenshot ${name}`, { path, contentType: 'image/png' });
  }

  it('streams the lookup with its progress, asks for approval, and runs the refund only after Approve', async (context) => {
    await openChat();
    await send('My order A-17 arrived broken. Can I get a refund?');

    const lookup = page.locator('[data-testid="tool"][data-tool="lookup_order"]');
    await reach(lookup.locator('[data-testid="tool-output"]'));
    await expect(lookup.locator('[data-testid="tool-input"]').textContent()).resolves.toContain('"orderId": "A-17"');
    await expect(lookup.locator('[data-testid="tool-output"]').textContent()).resolves.toContain('ceramic teapot');
    // The latest progress report of the call stays in the message.
    await expect(lookup.locator('[data-testid="progress"]').last().textContent()).resolves.toContain('done');

    const refund = page.locator('[data-testid="tool"][data-tool="refund_order"]');
    await reach(refund.locator('[data-testid="approval"]'));
    await idle();
    await expect(refund.getAttribute('data-state')).resolves.toBe('approval-requested');
    await expect(refund.locator('[data-testid="tool-input"]').textContent()).resolves.toContain('"amountCents": 4200');
    // The receipt address is a sensitive argument: the page gets `[redacted]` and a note, never the value.
    await expect(refund.locator('[data-testid="tool-input"]').textContent()).resolves.toContain(
      '"receiptEmail": "[redacted]"',
    );
    await expect(refund.locator('[data-testid="redacted-note"]').isVisible()).resolves.toBe(true);
    await expect(page.locator('[data-testid="text"]').allTextContents()).resolves.toContain(
      'Your ceramic teapot was delivered on 3 December. I am refunding the full 42.00 EUR; a colleague has to approve it first.',
    );
    // The run is paused on the server: nothing has been refunded yet.
    expect(chat.shop.refunds).toEqual([]);
    await screenshot(context, 'approval-requested');
    if (process.env.WEB_CHAT_README_SCREENSHOT === '1')
      copyFileSync(join(shots, 'approval-requested.png'), readmeScreenshot);

    await refund.getByRole('button', { name: 'Approve' }).click();
    await reach(refund.locator('[data-testid="tool-output"]'));
    await idle();
    await expect(refund.getAttribute('data-state')).resolves.toBe('output-available');
    await expect(refund.locator('[data-testid="tool-output"]').textContent()).resolves.toContain('"refundId": "R-1"');
    await expect(page.locator('[data-testid="text"]').last().textContent()).resolves.toBe(
      'Done: 42.00 EUR is on its way back to your card (refund R-1 for order A-17).',
    );
    await expect(page.locator('[data-testid="approval"]').count()).resolves.toBe(0);
    // The tool itself got the real address; the page never saw it.
    expect(chat.shop.refunds).toEqual([
      { orderId: 'A-17', amountCents: 4200, reason: 'arrived broken', receiptEmail: SCRIPTED_RECEIPT_EMAIL },
    ]);
    await expect(page.content()).resolves.not.toContain(SCRIPTED_RECEIPT_EMAIL);
    await screenshot(context, 'approved');
  });

  it('answers Deny with the denial: the refund tool never runs and the model says so', async (context) => {
    const before = chat.shop.refunds.length;
    await openChat();
    await send('Order B-42 is broken too, refund it please.');

    const refund = page.locator('[data-testid="tool"][data-tool="refund_order"]');
    await reach(refund.locator('[data-testid="approval"]'));
    await idle();
    await expect(refund.locator('[data-testid="tool-input"]').textContent()).resolves.toContain('"orderId": "B-42"');

    await refund.getByRole('button', { name: 'Deny' }).click();
    await reach(refund.locator('[data-testid="tool-denied"]'));
    await idle();
    await expect(refund.getAttribute('data-state')).resolves.toBe('output-denied');
    await expect(refund.locator('[data-testid="tool-output"]').count()).resolves.toBe(0);
    await expect(page.locator('[data-testid="text"]').last().textContent()).resolves.toBe(
      'The refund was not approved, so no money has moved. A colleague will contact you.',
    );
    // The server's side: the tool's only effect (the shop's refund list) never happened.
    expect(chat.shop.refunds).toHaveLength(before);
    expect(chat.shop.refunds.some((refund) => refund.orderId === 'B-42')).toBe(false);
    await screenshot(context, 'denied');
  });

  it('works the same on a real adapter: a local Messages API server (ANTHROPIC_BASE_URL), approved', async () => {
    await openChat(localChat.url);
    await expect(page.locator('.model').textContent()).resolves.toContain(
      `local (Anthropic Messages API at ${messagesServer.url}/v1)`,
    );
    await send('My order A-17 arrived broken. Can I get a refund?');
    const refund = page.locator('[data-testid="tool"][data-tool="refund_order"]');
    await reach(refund.locator('[data-testid="approval"]'));
    await idle();
    await expect(
      page.locator('[data-testid="tool"][data-tool="lookup_order"] [data-testid="tool-output"]').textContent(),
    ).resolves.toContain('ceramic teapot');
    expect(localChat.shop.refunds).toEqual([]);

    await refund.getByRole('button', { name: 'Approve' }).click();
    await reach(refund.locator('[data-testid="tool-output"]'));
    await idle();
    await expect(page.locator('[data-testid="text"]').last().textContent()).resolves.toBe(
      'Refund R-1 is done: 42.00 EUR is on its way back to your card.',
    );
    expect(localChat.shop.refunds).toEqual([{ orderId: 'A-17', amountCents: 4200, reason: 'arrived broken' }]);
    // Every replayed exchange was asked for, in order, with the expected transcript.
    messagesServer.assertDone();
  });

  it('loaded nothing but its own servers and logged no errors', () => {
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => !url.startsWith(`${chat.url}/`) && !url.startsWith(`${localChat.url}/`))).toEqual(
      [],
    );
    expect(problems).toEqual([]);
  });
});
