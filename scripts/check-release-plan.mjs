#!/usr/bin/env node
// Fails when the next release would publish the wrong versions: a 0.x package planned at 1.0.0 or
// above (changesets turns a bump of a package that another 0.x package depends on as a peer into a
// major, and a major of a 0.x package is 1.0.0), or a private package (examples, bench, the
// reliability suite) planned at a new version.
//
//   node scripts/check-release-plan.mjs                     # runs `changeset status --output` here
//   node scripts/check-release-plan.mjs --plan <file.json>  # checks a plan written before
//   node scripts/check-release-plan.mjs --root <dir> ...    # another workspace (the checker's tests)
//
// Going to 1.0.0 on purpose is a decision for a person: edit the versions by hand in that release.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const flag = (name) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const root = resolve(flag('--root') ?? '.');

/** Every package of the workspace (the `packages:` globs of pnpm-workspace.yaml), by name. */
function workspacePackages(dir) {
  const yaml = readFileSync(join(dir, 'pnpm-workspace.yaml'), 'utf8');
  const block = yaml.split(/^packages:\s*$/m)[1]?.split(/^\S/m)[0] ?? '';
  const globs = [...block.matchAll(/^\s+-\s+["']?([^"'\s#]+)["']?/gm)].map((match) => match[1]);
  const dirs = globs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [join(dir, glob)];
    const parent = join(dir, glob.slice(0, -2));
    return existsSync(parent) ? readdirSync(parent).map((name) => join(parent, name)) : [];
  });
  const packages = new Map();
  for (const packageDir of dirs) {
    const file = join(packageDir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    const tinyPeers = Object.keys(manifest.peerDependencies ?? {}).filter((dep) => dep.startsWith('@tiny/'));
    packages.set(manifest.name, { private: manifest.private === true, version: manifest.version, tinyPeers });
  }
  return packages;
}

/** The problems of one release plan (changesets' `--output` JSON), one sentence each. */
export function releasePlanProblems(plan, packages) {
  const problems = [];
  // A peer dependency on a 0.x layer turns that layer's next minor into a major (1.0.0) of this
  // package, in every future plan: refused even when today's plan happens to be fine.
  for (const [name, pkg] of packages) {
    if (!pkg.private && pkg.tinyPeers?.length) {
      problems.push(`${name}: peer dependency on ${pkg.tinyPeers.join(', ')}; make @tiny layers regular dependencies`);
    }
  }
  for (const release of plan.releases ?? []) {
    const pkg = packages.get(release.name);
    const moves = release.type !== 'none' || release.newVersion !== release.oldVersion;
    if (!pkg) {
      problems.push(`${release.name}: planned but not a package of this workspace`);
      continue;
    }
    if (pkg.private && moves) {
      problems.push(
        `${release.name}: private, yet planned ${release.oldVersion} -> ${release.newVersion} (${release.type}); ` +
          'set "privatePackages": { "version": false } in .changeset/config.json or list it in "ignore"',
      );
    }
    const oldMajor = Number(String(release.oldVersion).split('.')[0]);
    const newMajor = Number(String(release.newVersion).split('.')[0]);
    if (oldMajor === 0 && newMajor >= 1) {
      const from = release.changesets?.length ? ` (changesets: ${release.changesets.join(', ')})` : '';
      problems.push(
        `${release.name}: 0.x package planned at ${release.newVersion}${from}; a 0.x breaking change is a minor, ` +
          'and a peer dependency on a bumped 0.x layer forces a major: depend on @tiny layers as dependencies',
      );
    }
  }
  return problems;
}

function planFromChangesets(dir) {
  const scratch = mkdtempSync(join(tmpdir(), 'tiny-release-plan-'));
  const file = join(scratch, 'plan.json');
  try {
    // changesets joins --output onto the working directory, so it gets a relative path.
    const status = spawnSync('pnpm', ['exec', 'changeset', 'status', '--output', relative(dir, file)], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (status.status !== 0 || !existsSync(file)) {
      process.stderr.write(status.stdout + status.stderr);
      throw new Error(`changeset status failed (exit ${status.status})`);
    }
    return JSON.parse(readFileSync(file, 'utf8'));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const planFile = flag('--plan');
  const plan = planFile ? JSON.parse(readFileSync(resolve(planFile), 'utf8')) : planFromChangesets(root);
  const problems = releasePlanProblems(plan, workspacePackages(root));
  if (problems.length > 0) {
    for (const problem of problems) console.error(`release plan: ${problem}`);
    process.exit(1);
  }
  const moving = (plan.releases ?? []).filter((release) => release.type !== 'none');
  console.log(
    `release plan: ${moving.length} packages, ${moving.map((r) => `${r.name}@${r.newVersion}`).join(', ') || 'none'}; ` +
      'no 0.x package at 1.0.0, no private package versioned',
  );
}
