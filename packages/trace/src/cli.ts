#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { normalizeInput, parseTraceInput } from './model/trace-input.js';
import { renderTraceHtml } from './render/render-trace-html.js';

const usage = `Usage: tiny-trace <run.json | -> [-o trace.html | -o -] [--title <title>]

Reads a run saved as JSON (JSON.stringify of an AgentRun, or of recordEvents().recording)
and writes one self-contained HTML page. Without -o, writes <input>.html next to the input;
"-" reads stdin or writes stdout.`;

function main(argv: readonly string[]): number {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`tiny-trace: ${(error as Error).message}\n\n${usage}\n`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const [source] = parsed.positionals;
  if (source === undefined || parsed.positionals.length > 1) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  let html: string;
  let summary: string;
  try {
    const text = readFileSync(source === '-' ? 0 : source, 'utf8');
    const input = parseTraceInput(JSON.parse(text));
    html = renderTraceHtml(input, { title: parsed.values.title });
    const types = normalizeInput(input).events.map((event) => event.type);
    const turns = types.filter((type) => type === 'turn_started').length;
    const calls = types.filter((type) => type === 'tool_started').length;
    summary = `${turns} turn${turns === 1 ? '' : 's'}, ${calls} tool call${calls === 1 ? '' : 's'}`;
  } catch (error) {
    process.stderr.write(`tiny-trace: cannot read ${source === '-' ? 'stdin' : source}: ${(error as Error).message}\n`);
    return 1;
  }
  const target =
    parsed.values.output ?? (source === '-' ? '-' : join(dirname(source), `${basename(source, extname(source))}.html`));
  if (target === '-') process.stdout.write(html);
  else {
    writeFileSync(target, html);
    process.stderr.write(`tiny-trace: wrote ${target} (${summary})\n`);
  }
  return 0;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      title: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

process.exitCode = main(process.argv.slice(2));
