#!/usr/bin/env node
// Packs every publishable package (packages/*, not private) into npm tarballs, with each
// `workspace:^` range rewritten to the version it points at (`pnpm pack` does that), so a clone can
// be used before anything is on npm:
//
//   pnpm build && pnpm pack:all                      # -> tarballs/tiny-<name>-<version>.tgz
//   node scripts/pack-all.mjs --out <dir>            # another directory (CI's package checks)
//   npm i ./tarballs/tiny-tools-0.1.0.tgz ./tarballs/tiny-llm-0.1.0.tgz ./tarballs/tiny-harness-0.1.0.tgz
//
// It refuses to pack a package whose dist/ is missing (run `pnpm build` first): the tarball would
// install and then fail on its first import. One recursive `pnpm pack` packs them all (a pnpm start
// per package cost ~3 s each).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outAt = process.argv.indexOf('--out');
const out = resolve(outAt === -1 ? join(root, 'tarballs') : process.argv[outAt + 1]);
mkdirSync(out, { recursive: true });

const publishable = [];
for (const name of readdirSync(join(root, 'packages')).sort()) {
  const dir = join(root, 'packages', name);
  if (!existsSync(join(dir, 'package.json'))) continue;
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (manifest.private) continue;
  if (!existsSync(join(dir, 'dist'))) {
    console.error(`pack-all: ${manifest.name} has no dist/; run \`pnpm build\` first`);
    process.exit(1);
  }
  publishable.push(manifest);
}

const filters = publishable.flatMap((manifest) => ['--filter', manifest.name]);
const printed = execFileSync('pnpm', ['-r', ...filters, 'pack', '--pack-destination', out, '--json'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
// One package prints an object, several an array.
const reports = [JSON.parse(printed)].flat();
const tarballs = new Map(reports.map((report) => [`${report.name}@${report.version}`, report.filename]));
const packed = [];
for (const manifest of publishable) {
  const tarball = tarballs.get(`${manifest.name}@${manifest.version}`);
  if (!tarball || !existsSync(tarball)) {
    console.error(`pack-all: pnpm pack made no tarball for ${manifest.name}@${manifest.version}`);
    process.exit(1);
  }
  const manifestInside = execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' });
  if (manifestInside.includes('workspace:')) {
    console.error(`pack-all: ${basename(tarball)} still has a workspace: range`);
    process.exit(1);
  }
  packed.push(`${manifest.name}@${manifest.version} -> ${basename(tarball)}`);
}
console.log(`pack-all: ${packed.length} tarballs in ${out}\n  ${packed.join('\n  ')}`);
