// Runs scripts/trace-screenshot.mjs in `pnpm test:all` (scripts/run-tests.mjs runs every
// scripts/*.test.mjs): the README image is regenerated from the demo's own trace, and the page must
// show the runs and turns the demo's console printed, with the committed structure.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { captureDemoTrace, chromiumPath, readConsole } from './trace-screenshot.mjs';

test('readConsole folds a resume into its run and reads the outcome of a run its output tool ended', () => {
  const runs = readConsole(
    [
      '== run aaa',
      '-- turn 1',
      '-- turn 2',
      'run aaa: deferred',
      '== run aaa resumes',
      '-- turn 3',
      'run aaa: final',
      '== run bbb',
      '-- turn 1',
      'run bbb: done, the structured answer ended it (outcome `stopped`)',
    ].join('\n'),
  );
  assert.deepEqual(runs, [
    { id: 'aaa', turns: [1, 2, 3], outcome: 'final' },
    { id: 'bbb', turns: [1], outcome: 'stopped' },
  ]);
});

test('the README image is the demo trace, and the page shows what the console printed', {
  skip: !existsSync(chromiumPath) && `${chromiumPath} is missing`,
}, async () => {
  const { problems, printed, imagePath } = await captureDemoTrace();
  assert.deepEqual(problems, []);
  assert.equal(printed.length, 2);
  const image = readFileSync(imagePath);
  assert.equal(image.subarray(1, 4).toString(), 'PNG');
  assert.ok(image.byteLength > 10_000);
});
