// `node --import ./use-builds.mjs`: resolves `@tiny/harness` and `@tiny/tools` (for every importer,
// @tiny/llm included) to `$TINY_BENCH_BUILDS/packages/<name>/dist/index.js` instead of the
// workspace's builds, so two builds (say, one from a commit and one with a change applied) are
// measured in the same setting, untouched by other work on the workspace's own `dist/`.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const root = process.env.TINY_BENCH_BUILDS;
if (root !== undefined && root !== '') {
  const targets = Object.fromEntries(
    ['harness', 'tools'].map((name) => [`@tiny/${name}`, pathToFileURL(`${root}/packages/${name}/dist/index.js`).href]),
  );
  const hooks = `const targets = ${JSON.stringify(targets)};
export async function resolve(specifier, context, next) {
  const target = targets[specifier];
  return target === undefined ? next(specifier, context) : { url: target, shortCircuit: true };
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
