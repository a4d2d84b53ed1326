#!/usr/bin/env node
// The README image of the trace viewer is a screenshot of what the demo writes, made here:
//
// 1. runs the quickstart (examples/quickstart/dist/main.js; `pnpm build` first), which prints its
//    runs and turns and writes examples/quickstart/trace.html;
// 2. opens that page in headless Chromium (/usr/bin/chromium through playwright-core, offline);
// 3. checks the page against the console: the same runs (a resume inside its run), the same turn
//    numbers per run, each run's end, no "Before the first turn" box, the header's turn count;
// 4. compares the page's structure (runs, turns, calls and badges, never pixels or times) with
//    packages/trace/docs/trace-viewer.structure.json, so a change to the demo or the viewer that
//    changes the picture is seen in review;
// 5. writes the screenshot to packages/trace/docs/trace-viewer.png (run as a command; tests write a scratch file).
//
//   node scripts/trace-screenshot.mjs            # check, and regenerate the image
//   node scripts/trace-screenshot.mjs --update   # also rewrite the structure file after a change
// scripts/trace-screenshot.test.mjs runs it in `pnpm test:all`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const chromiumPath = '/usr/bin/chromium';
const demo = join(root, 'examples/quickstart/dist/main.js');
const page = join(root, 'examples/quickstart/trace.html');
const imagePath = join(root, 'packages/trace/docs/trace-viewer.png');
const structurePath = join(root, 'packages/trace/docs/trace-viewer.structure.json');

/** What the demo's console says: its runs in order, each with its turn numbers and how it ended. */
export function readConsole(stdout) {
  const runs = [];
  const byId = new Map();
  let current;
  for (const line of stdout.split('\n')) {
    const start = /^== run (\S+)( resumes)?$/.exec(line);
    if (start) {
      current = byId.get(start[1]);
      if (current === undefined) {
        current = { id: start[1], turns: [], outcome: undefined };
        byId.set(start[1], current);
        runs.push(current);
      }
      continue;
    }
    const turn = /^-- turn (\d+)$/.exec(line);
    if (turn && current) current.turns.push(Number(turn[1]));
    const end = /^run (\S+): (.*)$/.exec(line);
    if (end && byId.has(end[1])) {
      const outcome = /\(outcome `(\w+)`\)$/.exec(end[2]);
      byId.get(end[1]).outcome = outcome ? outcome[1] : end[2];
    }
  }
  return runs;
}

/** Runs the demo, checks its page in Chromium against its console, and writes the screenshot. */
// Tests write the image to a scratch file (a test run leaves the checkout clean); the command
// (`node scripts/trace-screenshot.mjs`) writes the committed README image.
export async function captureDemoTrace({ update = false, imageOut = join(tmpdir(), 'tiny-trace-viewer.png') } = {}) {
  if (!existsSync(demo)) throw new Error(`${demo} is missing: run \`pnpm build\` first`);
  const run = spawnSync(process.execPath, [demo], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', FORCE_COLOR: '0' },
  });
  if (run.status !== 0) throw new Error(`the demo failed (exit ${run.status}):\n${run.stdout}${run.stderr}`);
  const printed = readConsole(run.stdout);

  const { chromium } = createRequire(join(root, 'packages/trace/package.json'))('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'tiny-trace-shot-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const tab = browser.pages()[0] ?? (await browser.newPage());
    const requests = [];
    tab.on('request', (request) => requests.push(request.url()));
    await tab.goto(pathToFileURL(page).href);
    const shown = await tab.evaluate(() => ({
      turns: Number(document.querySelector('.stats li b')?.textContent),
      beforeFirstTurn: document.body.textContent?.includes('Before the first turn') === true,
      runs: [...document.querySelectorAll('section.run-section')].map((section) => ({
        id: section.getAttribute('data-run-id'),
        outcome: section.getAttribute('data-outcome'),
        parts: section.querySelector('h2.run-heading .parts')?.textContent ?? null,
        turns: [...section.querySelectorAll('section.turn')].map((turn) => ({
          turn: Number(turn.getAttribute('data-turn')),
          resumed: turn.getAttribute('data-resumed') === 'true',
          calls: [...turn.querySelectorAll(':scope > .calls > details.call')].map((call) =>
            [
              call.querySelector('summary .name')?.textContent,
              call.getAttribute('data-status'),
              ...[...call.querySelectorAll(':scope > summary .badge')].map((badge) => badge.textContent),
            ].join(' · '),
          ),
        })),
      })),
    }));

    const problems = [];
    if (requests.some((url) => !url.startsWith('file://'))) problems.push(`the page fetched: ${requests.join(', ')}`);
    if (shown.beforeFirstTurn) problems.push('the page shows a "Before the first turn" box');
    const consoleTurns = printed.reduce((sum, printedRun) => sum + printedRun.turns.length, 0);
    if (shown.turns !== consoleTurns)
      problems.push(`the header counts ${shown.turns} turns, the console ${consoleTurns}`);
    if (shown.runs.length !== printed.length)
      problems.push(`the page shows ${shown.runs.length} runs, the console ${printed.length}`);
    printed.forEach((printedRun, index) => {
      const section = shown.runs[index];
      if (section === undefined) return;
      const turns = section.turns.filter((turn) => !turn.resumed).map((turn) => turn.turn);
      if (section.id !== printedRun.id)
        problems.push(`run ${index + 1}: the page shows ${section.id}, the console ${printedRun.id}`);
      if (!isDeepStrictEqual(turns, printedRun.turns))
        problems.push(`run ${printedRun.id}: the page shows turns ${turns}, the console ${printedRun.turns}`);
      if (section.outcome !== printedRun.outcome)
        problems.push(`run ${printedRun.id}: the page says ${section.outcome}, the console ${printedRun.outcome}`);
    });

    // Structure without run ids (random per run) for the committed file.
    const structure = {
      turns: shown.turns,
      runs: shown.runs.map(({ id, ...rest }, index) => ({ run: index + 1, ...rest })),
    };
    const text = `${JSON.stringify(structure, null, 2)}\n`;
    if (update || !existsSync(structurePath)) writeFileSync(structurePath, text);
    else if (readFileSync(structurePath, 'utf8') !== text) {
      problems.push(
        `the page's structure differs from ${structurePath}:\n${text}\n(run \`node scripts/trace-screenshot.mjs --update\` if the change is meant)`,
      );
    }

    await tab.locator('button[data-action="collapse"]').click();
    const resumed = tab.locator('section.turn[data-resumed="true"] details.call summary').first();
    if ((await resumed.count()) > 0) await resumed.click();
    await tab.evaluate(() => window.scrollTo(0, 0));
    await tab.screenshot({ path: imageOut, fullPage: true });
    return { printed, shown, problems, imagePath: imageOut };
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { problems, printed } = await captureDemoTrace({
    update: process.argv.includes('--update'),
    imageOut: imagePath,
  });
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(
    `trace-screenshot: ${printed.length} runs, ${printed.reduce((sum, run) => sum + run.turns.length, 0)} turns, as the console printed them; ${imagePath} written`,
  );
}
