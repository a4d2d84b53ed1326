// The release-plan checker's own tests: `node --test scripts/check-release-plan.test.mjs` (part of
// `pnpm test:scripts`). The plans are shaped like `changeset status --output` writes them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const release = (name, type, oldVersion, newVersion, changesets = []) => ({
  name,
  type,
  oldVersion,
  newVersion,
  changesets,
});
const check = (releases, fixture = 'release-plan') => {
  const scratch = mkdtempSync(join(tmpdir(), 'release-plan-test-'));
  try {
    const plan = join(scratch, 'plan.json');
    writeFileSync(plan, JSON.stringify({ changesets: [], releases }));
    const root = join(here, '__fixtures__', fixture);
    return spawnSync(process.execPath, [join(here, 'check-release-plan.mjs'), '--root', root, '--plan', plan], {
      encoding: 'utf8',
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

test('minors of 0.x packages and an untouched private package pass', () => {
  const result = check([
    release('@fx/core', 'minor', '0.3.1', '0.4.0', ['core-feature']),
    release('@fx/adapter', 'patch', '0.0.4', '0.0.5'),
    release('@fx/demo', 'none', '0.0.0', '0.0.0'),
  ]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /2 packages, @fx\/core@0\.4\.0, @fx\/adapter@0\.0\.5/);
});

test('a 0.x package pushed to 1.0.0 by its peer dependency fails and names the package and changesets', () => {
  const result = check([
    release('@fx/core', 'minor', '0.3.1', '0.4.0', ['core-feature']),
    release('@fx/adapter', 'major', '0.0.4', '1.0.0', ['core-feature']),
  ]);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /@fx\/adapter: 0\.x package planned at 1\.0\.0 \(changesets: core-feature\)/);
  assert.doesNotMatch(result.stderr, /@fx\/core/);
});

test('a 0.x package planned past 1.0.0 fails too; a package already at 1.x may take a major', () => {
  const jump = check([release('@fx/core', 'major', '0.3.1', '2.0.0')]);
  assert.equal(jump.status, 1);
  assert.match(jump.stderr, /@fx\/core: 0\.x package planned at 2\.0\.0/);
  const major = check([release('@fx/core', 'major', '1.2.0', '2.0.0')]);
  assert.equal(major.status, 0, major.stderr);
});

test('a private package planned at a new version fails, even as a patch', () => {
  const result = check([
    release('@fx/core', 'patch', '0.3.1', '0.3.2'),
    release('@fx/demo', 'patch', '0.0.0', '0.0.1'),
  ]);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /@fx\/demo: private, yet planned 0\.0\.0 -> 0\.0\.1 \(patch\)/);
});

test('a planned package that is not in the workspace fails', () => {
  const result = check([release('@fx/gone', 'patch', '0.1.0', '0.1.1')]);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /@fx\/gone: planned but not a package of this workspace/);
});

test('a publishable package with a peer dependency on a @tiny layer fails even when the plan is fine', () => {
  const result = check([release('@fx/core', 'patch', '0.3.1', '0.3.2')], 'release-plan-peer');
  assert.equal(result.status, 1);
  assert.match(result.stderr, /@fx\/adapter: peer dependency on @tiny\/core; make @tiny layers regular dependencies/);
});

test("the workspace's own plan, from changesets, passes", () => {
  const result = spawnSync(process.execPath, [join(here, 'check-release-plan.mjs')], {
    cwd: join(here, '..'),
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /no 0\.x package at 1\.0\.0, no private package versioned/);
});
