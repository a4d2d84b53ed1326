#!/usr/bin/env node
// Fails when a package imports a @tiny layer above (or beside) its own, imports a @tiny package it
// does not declare, or has an import cycle among its own modules. Layers: tools -> llm -> harness ->
// structured; provider adapters plug into llm; integrations (mcp, ledger stores, otel, code-mode,
// ...) sit on top.
//
// Cycles: every relative import of a package's `src/` (static, dynamic, `export ... from`, and
// `import type` too: a type-only cycle still means two modules own each other's shapes) is an edge;
// any strongly connected component of two or more modules, or a module importing itself, fails.
//
//   node scripts/check-layers.mjs                  # the workspace
//   node scripts/check-layers.mjs --root <dir>     # another tree with packages/*/ (the checker's own tests)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const rootFlag = process.argv.indexOf('--root');
const root = rootFlag === -1 ? process.cwd() : resolve(process.argv[rootFlag + 1] ?? '.');
const packagesDir = join(root, 'packages');

const rank = (name) => {
  const short = name.replace(/^@tiny\//, '');
  const core = { tools: 0, llm: 1, harness: 2, structured: 3 };
  if (short in core) return core[short];
  // Shared HTTP plumbing of the adapters: below them, beside nothing.
  if (short === 'provider-utils') return 1.5;
  if (short.startsWith('provider-')) return 2;
  // Above the harness: code-mode, mcp, ledger stores, otel, trace, restate, local.
  return 4;
};

const files = (dir) =>
  readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === '__fixtures__' ? [] : files(path);
    return /\.(ts|mts|tsx|js|mjs)$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });

/** Every module specifier a file imports or re-exports, type-only and dynamic imports included. */
const specifiers = (text) => ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);

/** The source file a relative specifier names (`./x.js` is `./x.ts` in the sources), if it is one. */
function resolveRelative(from, specifier, known) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts'), join(base, 'index.js')];
  return candidates.find((candidate) => known.has(candidate));
}

/** Strongly connected components (Tarjan) of the import graph that form a cycle. */
function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node).has(node)) found.push(component.reverse());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One concrete loop through a component, for the message: a -> b -> ... -> a. */
function loopThrough(component, graph) {
  const members = new Set(component);
  const start = component[0];
  const path = [start];
  const seen = new Set([start]);
  const walk = (node) => {
    for (const next of graph.get(node)) {
      if (next === start) return true;
      if (!members.has(next) || seen.has(next)) continue;
      seen.add(next);
      path.push(next);
      if (walk(next)) return true;
      path.pop();
    }
    return false;
  };
  walk(start);
  return [...path, start];
}

const problems = [];
let checkedModules = 0;
for (const dir of readdirSync(packagesDir)) {
  const manifestPath = join(packagesDir, dir, 'package.json');
  if (!existsSync(manifestPath)) continue;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const own = rank(manifest.name);
  const declared = new Set(
    Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.devDependencies }),
  );
  const sources = files(join(packagesDir, dir, 'src'));
  const known = new Set(sources);
  const graph = new Map(sources.map((file) => [file, new Set()]));
  checkedModules += sources.length;
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    const shown = relative(root, file);
    for (const specifier of specifiers(text)) {
      if (specifier.startsWith('.')) {
        if (specifier.startsWith('../../../')) problems.push(`${shown}: reaches into another package by path`);
        const target = resolveRelative(file, specifier, known);
        if (target) graph.get(file).add(target);
        continue;
      }
      const target = /^@tiny\/[a-z0-9-]+/.exec(specifier)?.[0];
      if (!target) continue;
      if (target === manifest.name) {
        if (!file.includes('.test')) problems.push(`${shown}: imports its own package by name`);
      } else if (!declared.has(target))
        problems.push(`${shown}: imports ${target}, which package.json does not declare`);
      else if (rank(target) >= own && !file.includes('.test')) {
        problems.push(`${shown}: ${manifest.name} (layer ${own}) imports ${target} (layer ${rank(target)})`);
      }
    }
  }
  for (const component of cycles(graph)) {
    const loop = loopThrough(component, graph).map((file) => relative(join(packagesDir, dir, 'src'), file));
    const all = component.map((file) => relative(join(packagesDir, dir, 'src'), file));
    const more = all.length > loop.length - 1 ? ` (one loop of a cycle through ${all.join(', ')})` : '';
    problems.push(`${manifest.name}: import cycle ${loop.join(' -> ')}${more}`);
  }
}
if (problems.length > 0) {
  console.error(`layer check failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `layer check: every @tiny import points down and is declared; no import cycle in ${checkedModules} modules`,
);
