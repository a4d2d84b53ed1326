// Tests of the docs checker's run step (scripts/check-docs.mjs): output comments are compared with
// what the block prints, and a block that throws is reported at its Markdown file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { printsAsCommented, runModules } from './check-docs.mjs';

test('an output comment matches console.log formatting, whitespace inside brackets aside, … as any text', () => {
  assert.equal(printsAsCommented("['weather']", "[ 'weather' ]"), true);
  assert.equal(
    printsAsCommented('{ ok: true, call: { name: "x" } }', '{\n  ok: true,\n  call: { name: "x" }\n}'),
    true,
  );
  assert.equal(
    printsAsCommented("['run_started', … 'run_completed']", "[ 'run_started', 'turn_started', 'run_completed' ]"),
    true,
  );
  assert.equal(printsAsCommented('1 []', '2 []'), false);
  assert.equal(printsAsCommented("'final'", 'final'), false); // strings print bare
  assert.equal(printsAsCommented('a.b', 'axb'), false); // the comment is text, not a pattern
});

test('runModules runs blocks in one process and reports wrong output, throws and unreached comments', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'check-docs-test-'));
  try {
    const block = (name, source, run = true) => ({
      file: `${name}.md`,
      line: 1,
      name: `${name}.ts`,
      source,
      origin: source.map((_, index) => index + 2),
      run,
    });
    const problems = runModules(
      [
        block('right', ['const n: number = 1 + 1;', 'console.log(n, []); // → 2 []']),
        block('wrong', ['console.log(1 + 1, []); // → 1 []']),
        block('throws', ["throw new Error('boom');"]),
        block('unreached', ['if (Date.now() < 0) console.log(1); // → 1']),
        block('server', ['await fetch("http://127.0.0.1:9/"); // never run'], false),
        block('stray', ['const x = 1; // → 1']),
      ],
      scratch,
    );
    assert.deepEqual(
      problems.map((problem) => problem.split(':').slice(0, 2).join(':')),
      ['stray.md:2', 'wrong.md:2', 'throws.md:1', 'unreached.md:2'],
    );
    assert.match(problems[1], /prints "2 \[\]", the comment says "1 \[\]"/);
    assert.match(problems[2], /the block failed when run: Error: boom/);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
