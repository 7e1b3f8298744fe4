// One build script for every bundle: the shared core, the extension, the CLI and the benchmark.
// `--production` minifies and drops source maps (what the VSIX ships);
// `--bench` builds only the core, the CLI and the benchmark, as production, into out/bench/:
// `npm run bench` measures what ships without leaving dist/ a production build;
// `--watch` rebuilds on change during development.
import * as esbuild from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { reachedByFaces, sharedCore, sharedCoreBuild } from './scripts/sharedCore.mjs';

const bench = process.argv.includes('--bench');
const production = bench || process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // jsonc-parser's UMD build hides its requires from bundlers; its ESM build does not.
  mainFields: ['module', 'main'],
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  define: { SKILLGATE_VERSION: JSON.stringify(version) },
};

// Every Node entry in dist/ is a thin face over one dist/core.js (scripts/sharedCore.mjs):
// the VSIX and the npm package ship the core once, and each face evaluates only the core
// modules it reaches. The core is built last, for the modules the faces load.
const BENCH_BUNDLES = ['dist/core.js', 'dist/cli.js', 'dist/treeReader.js', 'dist/bench.js'];
const builds = [
  { core: true, outfile: 'dist/core.js' },
  {
    entryPoints: ['src/cli/cli.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [sharedCore],
  },
  {
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    plugins: [sharedCore],
  },
  // The extension's index runs in a worker thread (src/extension/flows/workerIndex.ts), over the same core.
  { entryPoints: ['src/extension/indexWorker.ts'], outfile: 'dist/indexWorker.js', plugins: [sharedCore] },
  // The CLI's tree reader threads (src/cli/readAheadPool.ts) bundle the few core modules they
  // need instead of loading the whole shared core.
  { entryPoints: ['src/cli/treeReader.ts'], outfile: 'dist/treeReader.js' },
  { entryPoints: ['bench/bench.ts'], outfile: 'dist/bench.js', plugins: [sharedCore] },
  // The review panel's script runs in the webview: a browser bundle, shipped from media/.
  {
    entryPoints: ['src/extension/review/webview/review.ts'],
    outfile: 'media/review.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    mainFields: ['browser', 'module', 'main'],
    sourcemap: production ? false : 'inline',
  },
  // In-host integration tests: the mocha runner and the suites, loaded by the test harness.
  {
    entryPoints: ['test/integration/index.ts'],
    outfile: 'out/integration/index.js',
    external: ['vscode', 'mocha'],
    test: true,
  },
  {
    entryPoints: ['test/integration/suites/all.ts'],
    outfile: 'out/integration/suites.js',
    external: ['vscode'],
    test: true,
  },
]
  .filter((b) => b.core || existsSync(b.entryPoints[0]))
  .flatMap((b) =>
    !bench
      ? [b]
      : BENCH_BUNDLES.includes(b.outfile)
        ? [{ ...b, outfile: b.outfile.replace(/^dist\//, 'out/bench/') }]
        : // The other faces are built unwritten: the core they load ships, so the benchmark's core holds it too.
          b.plugins?.includes(sharedCore)
          ? [{ ...b, write: false }]
          : [],
  );

// The webview's codicons are committed in media/codicons/, cut to the glyphs it uses (scripts/codicons.ts).
// The review panel's style lives beside its script (src/extension/review/webview/) and ships from media/ with it,
// minified in production like the script.
const style = readFileSync('src/extension/review/webview/review.css', 'utf8');
writeFileSync(
  'media/review.css',
  production ? (await esbuild.transform(style, { loader: 'css', minify: true })).code : style,
);

// Test bundles are never minified: their stack traces must stay readable.
// The core's entry holds the modules `reached` names, every core module when none is given.
const context = ({ test, core, ...b }, reached) =>
  esbuild.context({
    ...common,
    ...(test ? { minify: false, sourcemap: 'inline' } : {}),
    ...(core ? sharedCoreBuild(reached) : {}),
    ...b,
  });
if (watch) {
  // A face edited while watching may load a core module no face loaded before: the core holds them all.
  const contexts = await Promise.all(builds.map((b) => context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  // The faces (and the other bundles) first: their plugin records the core modules they load (reachedByFaces), which the core then holds.
  const others = await Promise.all(builds.filter((b) => !b.core).map((b) => context(b)));
  await Promise.all(others.map((c) => c.rebuild()));
  if (reachedByFaces.size === 0) throw new Error('no face loads a core module: dist/core.js would hold none');
  const cores = await Promise.all(builds.filter((b) => b.core).map((b) => context(b, reachedByFaces)));
  await Promise.all(cores.map((c) => c.rebuild()));
  await Promise.all([...others, ...cores].map((c) => c.dispose()));
}
