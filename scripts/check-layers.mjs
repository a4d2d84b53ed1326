#!/usr/bin/env node
// Fails when a package imports a @tiny layer above (or beside) its own, or imports a @tiny
// package it does not declare. Layers: tools -> llm -> harness -> structured; provider
// adapters plug into llm; integrations (mcp, ledger stores, otel, code-mode, ...) sit on top.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const rank = (name) => {
  const short = name.replace(/^@tiny\//, '');
  const core = { tools: 0, llm: 1, harness: 2, structured: 3 };
  if (short in core) return core[short];
  // Shared HTTP plumbing of the adapters: below them, beside nothing.
  if (short === 'provider-utils') return 1.5;
  if (short.startsWith('provider-')) return 2;
  // Above the harness: code-mode, mcp, ledger stores, otel, trace, restate.
  return 4;
};

const files = (dir) =>
  readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === '__fixtures__' ? [] : files(path);
    return /\.(ts|mts|js|mjs)$/.test(entry) ? [path] : [];
  });

const problems = [];
for (const dir of readdirSync('packages')) {
  const manifest = JSON.parse(readFileSync(join('packages', dir, 'package.json'), 'utf8'));
  const own = rank(manifest.name);
  const declared = new Set(
    Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.devDependencies }),
  );
  for (const file of files(join('packages', dir, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](@tiny\/[a-z0-9-]+)/g)) {
      const target = match[1];
      if (target === manifest.name) {
        if (!file.includes('.test')) problems.push(`${file}: imports its own package by name`);
      } else if (!declared.has(target))
        problems.push(`${file}: imports ${target}, which package.json does not declare`);
      else if (rank(target) >= own && !file.includes('.test')) {
        problems.push(`${file}: ${manifest.name} (layer ${own}) imports ${target} (layer ${rank(target)})`);
      }
    }
    if (/from\s+['"]\.\.\/\.\.\/\.\.\//.test(text)) problems.push(`${file}: reaches into another package by path`);
  }
}
if (problems.length > 0) {
  console.error(`layer check failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('layer check: every @tiny import points down and is declared');
