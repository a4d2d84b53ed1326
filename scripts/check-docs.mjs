#!/usr/bin/env node
// Checks every TypeScript code block of the docs, so they cannot drift from the code: it type-checks
// them all, then RUNS the runnable ones and compares what they print with their output comments.
//
// Every fenced block whose info string is `ts` or `typescript` in README.md, CONTRIBUTING.md,
// docs/**/*.md, packages/*/README.md and examples/*/README.md becomes one module of a scratch project
// (in a temporary directory) whose node_modules links the workspace packages (their built `dist/`,
// so run `pnpm build` first) and the third-party packages the blocks import. `tsgo` (the TypeScript 7
// native preview the packages' `typecheck` scripts use) checks them all at once, strict, and errors
// are reported at the Markdown file and line.
//
// Info string flags:
//   ts continue       appended to the block before it in the same file (a guide that builds one
//                     program step by step)
//   ts needs-server   needs a live server or endpoint (an LLM API, Restate, an MCP server): only
//                     type-checked, never run
//   ts vitest         a test file for vitest (it needs vitest's runner): only type-checked
// Every other block is run, offline (the loopback guard refuses any connection off the machine,
// and the provider variables such as OPENAI_API_KEY are removed), on the embedded scripted model /
// testkit. The blocks run one after another in ONE Node process (a process per block would cost a
// second each), each as its own ES module, with a 30 s cap per block; a block fails when it throws,
// rejects, or leaves an unhandled rejection.
//
// Output comments: a line that calls `console.log(...)` and ends with `// → <text>` states what
// that call prints (as `console.log` formats it: strings bare, other values through util.inspect;
// whitespace runs compare equal, and `…` stands for any text, for run ids and long values). Every
// call made from that line must print a matching text, and the line must be reached. Any other
// comment is prose and is not compared.
//
//   node scripts/check-docs.mjs            # check
//   node scripts/check-docs.mjs --keep     # keep the scratch project and print its path
//   node scripts/check-docs.mjs --no-run   # type-check only
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const runBlocks = !process.argv.includes('--no-run');

/** The Markdown files whose code blocks are checked. */
function markdownFiles() {
  const files = ['README.md', 'CONTRIBUTING.md'].filter((file) => existsSync(join(root, file)));
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) files.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  for (const group of ['packages', 'examples']) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      const readme = join(group, entry.name, 'README.md');
      if (entry.isDirectory() && existsSync(join(root, readme))) files.push(readme);
    }
  }
  return files;
}

/** Info string flags of blocks that are type-checked but not run. */
const NO_RUN = new Set(['needs-server', 'vitest']);

/**
 * The modules of one Markdown file: each has its source and, per source line, the Markdown line it
 * came from.
 */
function extractModules(file) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const modules = [];
  let open;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const fence = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(line);
    if (open) {
      if (fence && fence[2][0] === open.marker[0] && fence[2].length >= open.marker.length && fence[3].trim() === '') {
        open = undefined;
      } else if (open.module) {
        open.module.source.push(line.slice(Math.min(open.indent, line.length - line.trimStart().length)));
        open.module.origin.push(index + 1);
      }
      continue;
    }
    if (!fence) continue;
    const [lang, ...flags] = fence[3].trim().split(/\s+/);
    let module;
    if (lang === 'ts' || lang === 'typescript') {
      if (flags.includes('continue')) {
        module = modules.at(-1);
        if (!module) throw new Error(`${file}:${index + 1}: \`ts continue\` without a block before it`);
      } else {
        module = { file, line: index + 1, source: [], origin: [], run: !flags.some((flag) => NO_RUN.has(flag)) };
        modules.push(module);
      }
      const unknown = flags.filter((flag) => flag !== 'continue' && !NO_RUN.has(flag));
      if (unknown.length > 0) throw new Error(`${file}:${index + 1}: unknown code fence flag(s): ${unknown.join(' ')}`);
    }
    open = { marker: fence[2], indent: fence[1].length, module };
  }
  if (open) throw new Error(`${file}: unclosed code fence`);
  return modules;
}

/** Where a package a block imports lives: a workspace package, else the first install found. */
function workspacePackages() {
  const byName = new Map();
  for (const group of ['packages', 'examples', 'bench', 'reliability']) {
    const dirs =
      group === 'bench' || group === 'reliability'
        ? [group]
        : readdirSync(join(root, group)).map((name) => join(group, name));
    for (const dir of dirs) {
      const manifest = join(root, dir, 'package.json');
      if (existsSync(manifest)) byName.set(JSON.parse(readFileSync(manifest, 'utf8')).name, join(root, dir));
    }
  }
  return byName;
}

function packageName(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function locate(name, workspace) {
  if (workspace.has(name)) return workspace.get(name);
  const candidates = [join(root, 'node_modules', name)];
  for (const dir of workspace.values()) candidates.push(join(dir, 'node_modules', name));
  return candidates.find((candidate) => existsSync(join(candidate, 'package.json')));
}

/** The text of an output comment: what the `console.log` call on its line prints. */
const OUTPUT_COMMENT = /\s\/\/ → (.*)$/;
const LOG_CALL = 'console.log(';

/**
 * Whitespace runs compare equal, as does whitespace just inside brackets (`[ 'a' ]` is `['a']`);
 * `…` in the comment stands for any text.
 */
function normalize(text) {
  return text
    .replace(/\s+/g, ' ')
    .replace(/([[{(]) /g, '$1')
    .replace(/ ([\]})])/g, '$1')
    .trim();
}

export function printsAsCommented(expected, printed) {
  const pattern = normalize(expected)
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${pattern}$`).test(normalize(printed));
}

/** The program that runs the blocks, one ES module after another, in one process. */
const RUNNER = `
import { writeFileSync } from 'node:fs';
import { format, inspect } from 'node:util';
import { pathToFileURL } from 'node:url';

const [list, out] = process.argv.slice(2);
const blocks = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(list, 'utf8')));
const results = [];
let current;
const describe = (error) => (error instanceof Error ? (error.stack ?? error.message) : inspect(error));
globalThis.__docsLog = (id, ...args) => current.printed.push({ id, text: format(...args) });
for (const method of ['log', 'info', 'warn', 'error', 'debug']) {
  console[method] = (...args) => current?.other.push(format(...args));
}
process.on('unhandledRejection', (error) => current?.errors.push('unhandled rejection: ' + describe(error)));
process.on('uncaughtException', (error) => current?.errors.push('uncaught exception: ' + describe(error)));
for (const block of blocks) {
  current = { printed: [], errors: [], other: [] };
  let timer;
  const cap = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('did not finish within 30 s')), 30_000);
  });
  try {
    await Promise.race([import(pathToFileURL(block)), cap]);
    await new Promise((resolve) => setImmediate(resolve));
  } catch (error) {
    current.errors.push(describe(error));
  } finally {
    clearTimeout(timer);
  }
  results.push(current);
}
writeFileSync(out, JSON.stringify(results));
process.exit(0);
`;

/** Runs the runnable blocks and returns the problems: throws, and output that differs from its comment. */
export function runModules(modules, scratch) {
  const ts = createRequire(join(root, 'package.json'))('typescript');
  const found = [];
  const runnable = modules.filter((module) => module.run);
  const paths = runnable.map((module) => {
    module.expectations = [];
    const source = module.source.map((line, index) => {
      const comment = OUTPUT_COMMENT.exec(line);
      if (!comment) return line;
      const at = line.indexOf(LOG_CALL);
      if (at < 0) {
        found.push(
          `${module.file}:${module.origin[index]}: an output comment (// →) on a line that does not call ${LOG_CALL}`,
        );
        return line;
      }
      const id = module.expectations.length;
      module.expectations.push({ expected: comment[1].trim(), line: module.origin[index] });
      return `${line.slice(0, at)}globalThis.__docsLog(${id}, ${line.slice(at + LOG_CALL.length)}`;
    });
    const { outputText } = ts.transpileModule(source.join('\n'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    const path = join(scratch, module.name.replace(/\.ts$/, '.run.mjs'));
    writeFileSync(path, outputText);
    return path;
  });
  const list = join(scratch, 'run-list.json');
  const out = join(scratch, 'run-results.json');
  writeFileSync(list, JSON.stringify(paths));
  writeFileSync(join(scratch, 'run.mjs'), RUNNER);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(OPENAI|ANTHROPIC|AI_|OLLAMA|RESTATE)_?/.test(name)),
  );
  env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --require=${join(root, 'scripts', 'loopback-guard.cjs')}`.trim();
  const result = spawnSync(process.execPath, [join(scratch, 'run.mjs'), list, out], {
    cwd: scratch,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (!existsSync(out)) {
    return [...found, `the block runner failed (exit ${result.status}):\n${result.stdout}${result.stderr}`];
  }
  const results = JSON.parse(readFileSync(out, 'utf8'));
  runnable.forEach((module, index) => {
    const { printed, errors, other } = results[index];
    const where = `${module.file}:${module.line}`;
    for (const error of errors) {
      const context = other.length > 0 ? `\n  it printed before:\n    ${other.slice(-10).join('\n    ')}` : '';
      found.push(`${where}: the block failed when run: ${error.split('\n').slice(0, 6).join('\n    ')}${context}`);
    }
    module.expectations.forEach((expectation, id) => {
      const texts = printed.filter((entry) => entry.id === id).map((entry) => entry.text);
      if (texts.length === 0 && errors.length === 0) {
        found.push(
          `${module.file}:${expectation.line}: this console.log never ran, so its output comment is unchecked`,
        );
      }
      for (const text of texts) {
        if (!printsAsCommented(expectation.expected, text)) {
          found.push(
            `${module.file}:${expectation.line}: prints ${JSON.stringify(text)}, the comment says ${JSON.stringify(expectation.expected)}`,
          );
        }
      }
    });
  });
  return found;
}

function main() {
  const files = markdownFiles();
  const modules = files.flatMap(extractModules);
  const workspace = workspacePackages();
  const scratch = mkdtempSync(join(tmpdir(), 'tiny-docs-check-'));
  const problems = [];
  try {
    const linked = new Set();
    const names = new Map();
    for (const module of modules) {
      const slug = module.file.replace(/[^A-Za-z0-9]+/g, '-').replace(/-md$/, '');
      module.name = `${slug}-L${module.line}.ts`;
      names.set(module.name, module);
      writeFileSync(join(scratch, module.name), `${module.source.join('\n')}\n`);
      const source = module.source.join('\n');
      for (const match of source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        const name = packageName(match[1]);
        if (name === undefined || linked.has(name)) continue;
        const at = locate(name, workspace);
        if (at === undefined) {
          problems.push(`${module.file}:${module.line}: imports \`${name}\`, which no workspace package installs`);
          continue;
        }
        const link = join(scratch, 'node_modules', name);
        mkdirSync(dirname(link), { recursive: true });
        symlinkSync(at, link, 'dir');
        linked.add(name);
      }
    }
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'tiny-docs-check', private: true, type: 'module' }),
    );
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2023'],
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            moduleDetection: 'force',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
            typeRoots: [join(root, 'node_modules', '@types')],
          },
          include: ['*.ts'],
        },
        null,
        2,
      ),
    );
    if (problems.length === 0) {
      const tsgo = join(root, 'node_modules', '@typescript', 'native-preview', 'bin', 'tsgo');
      const result = spawnSync(process.execPath, [tsgo, '-p', scratch, '--pretty', 'false'], { encoding: 'utf8' });
      const output = `${result.stdout}${result.stderr}`;
      for (const line of output.split('\n')) {
        const at = /^(.+?\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
        const module = at && names.get(at[1].split(/[\\/]/).at(-1));
        if (at && module) {
          const mdLine = module.origin[Number(at[2]) - 1] ?? module.line;
          problems.push(`${module.file}:${mdLine}:${at[3]}: ${at[4]}`);
        } else if (line.trim() !== '') {
          problems.push(line);
        }
      }
      if (result.status !== 0 && problems.length === 0) problems.push(`tsc exited with ${result.status}`);
    }
    if (problems.length === 0 && runBlocks) problems.push(...runModules(modules, scratch));
  } finally {
    if (keep) console.log(`docs-check: scratch project kept at ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }

  if (problems.length > 0) {
    console.error(problems.join('\n'));
    console.error(`\ndocs-check: ${problems.length} problem(s) in the TypeScript blocks of the docs`);
    process.exit(1);
  }
  const ran = modules.filter((module) => module.run);
  console.log(
    `docs-check: ${modules.length} TypeScript blocks in ${new Set(modules.map((m) => m.file)).size} files type-check` +
      (runBlocks
        ? `; ${ran.length} ran and printed what their ${ran.reduce((sum, m) => sum + (m.expectations?.length ?? 0), 0)} output comments say` +
          ` (${modules.length - ran.length} marked needs-server or vitest: type-checked only)`
        : ''),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
