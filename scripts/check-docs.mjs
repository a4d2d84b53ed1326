#!/usr/bin/env node
// Type-checks every TypeScript code block of the docs, so they cannot drift from the code.
//
// Every fenced block whose info string is `ts` or `typescript` in README.md, CONTRIBUTING.md,
// docs/**/*.md, packages/*/README.md and examples/*/README.md becomes one module of a scratch project
// (in a temporary directory) whose node_modules links the workspace packages (their built `dist/`
// types, so run `pnpm build` first) and the third-party packages the blocks import. `tsc --noEmit`
// checks them all at once, strict, and errors are reported at the Markdown file and line.
//
// A block whose info string is `ts continue` is appended to the block before it in the same file
// (a guide that builds one program step by step); nothing else is skipped.
//
//   node scripts/check-docs.mjs            # check
//   node scripts/check-docs.mjs --keep     # keep the scratch project and print its path
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
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');

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
        module = { file, line: index + 1, source: [], origin: [] };
        modules.push(module);
      }
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
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', scratch, '--pretty', 'false'], { encoding: 'utf8' });
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
} finally {
  if (keep) console.log(`docs-check: scratch project kept at ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\ndocs-check: ${problems.length} problem(s) in the TypeScript blocks of the docs`);
  process.exit(1);
}
console.log(
  `docs-check: ${modules.length} TypeScript blocks in ${new Set(modules.map((m) => m.file)).size} files type-check`,
);
