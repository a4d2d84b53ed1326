import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordDemoRun } from './render/demo-run.test-helper.js';

// The built bin (turbo builds the package before its tests).
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let dir: string;

beforeAll(async () => {
  expect(existsSync(cli), 'run `pnpm build` first: the CLI test runs dist/cli.js').toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'tiny-trace-'));
  const { run, recording } = await recordDemoRun();
  writeFileSync(join(dir, 'run.json'), JSON.stringify(run));
  writeFileSync(join(dir, 'recording.json'), JSON.stringify(recording));
});

describe('tiny-trace', () => {
  it('writes the page given with -o, from a saved AgentRun', () => {
    const result = spawnSync(process.execPath, [cli, join(dir, 'run.json'), '-o', join(dir, 'trace.html')], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('(3 turns, 7 tool calls)');
    const html = readFileSync(join(dir, 'trace.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/<section class="turn"/g)).toHaveLength(3);
  });

  it('defaults to <input>.html next to a recording, and writes stdout with -o -', () => {
    execFileSync(process.execPath, [cli, join(dir, 'recording.json'), '--title', 'Trip'], { stdio: 'pipe' });
    expect(readFileSync(join(dir, 'recording.html'), 'utf8')).toContain('<title>Trip</title>');
    const out = execFileSync(process.execPath, [cli, join(dir, 'recording.json'), '-o', '-'], { encoding: 'utf8' });
    expect(out).toContain('<section class="turn" data-turn="3">');
  });

  it('fails with a message on bad input and with usage on bad arguments', () => {
    writeFileSync(join(dir, 'bad.json'), '{"hello": 1}');
    const bad = spawnSync(process.execPath, [cli, join(dir, 'bad.json')], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('expected an AgentRun');
    const usage = spawnSync(process.execPath, [cli], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('Usage: tiny-trace');
  });

  it('runs through the committed bin entry the package declares', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const bin = fileURLToPath(new URL(`../${manifest.bin['tiny-trace']}`, import.meta.url));
    const usage = spawnSync(process.execPath, [bin], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('Usage: tiny-trace');
  });
});
