// The layer checker's own tests: `node --test scripts/check-layers.test.mjs` (part of `pnpm test:suite`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const check = (root) =>
  spawnSync(process.execPath, [join(here, 'check-layers.mjs'), '--root', join(here, '__fixtures__', root)], {
    encoding: 'utf8',
  });

test('an import cycle inside a package fails the check and is named, type-only imports included', () => {
  const result = check('layers-cycle');
  assert.equal(result.status, 1);
  assert.match(
    result.stderr,
    /@tiny\/widgets: import cycle (widget\.ts -> parts\/part\.ts -> widget\.ts|parts\/part\.ts -> widget\.ts -> parts\/part\.ts)/,
  );
});

test('a module importing itself is a cycle', () => {
  const result = check('layers-cycle');
  assert.match(result.stderr, /@tiny\/widgets: import cycle parts\/self\.ts -> parts\/self\.ts/);
});

test('the same package without the back edge passes (comments and strings are not imports)', () => {
  const result = check('layers-clean');
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /no import cycle in 3 modules/);
});

test('the workspace itself has no cycle and no layer problem', () => {
  const result = spawnSync(process.execPath, [join(here, 'check-layers.mjs')], {
    cwd: join(here, '..'),
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
});
