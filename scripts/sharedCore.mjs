// The core ships once (issue 15). dist/core.js bundles src/core/** and the packages it
// uses; every Node entry in dist/ (the CLI, the extension, the index worker, the
// benchmark) is a thin face that requires it at run time instead of bundling a copy.
//
// dist/core.js exports `load(id)`, id being a core module's path under src/core without
// its extension ('index/indexer'). esbuild wraps each module that is reached through
// `require` so that it evaluates on its first load: a face pays only for the core
// modules it reaches (`skillgate --version` for none), in the order its imports reach them.
//
// dist/core.js holds the modules the faces load, recorded while esbuild.mjs builds them
// first, not every module under src/core: each module a `load` can reach keeps an exports
// object of all its exports, and the modules only other core modules import need none
// (issue 15: 29 KB of dist/core.js, 9 KB of the VSIX).
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tomlVisitorKeys } from './tomlVisitorKeys.mjs';
import { yamlEsm } from './yamlEsm.mjs';
import { zodWithoutJsonSchema } from './zodWithoutJsonSchema.mjs';

const CORE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'core');
const NAMESPACE = 'skillgate-core';
/**
 * Core modules a face bundles a copy of instead: the CLI and the index worker load
 * dist/core.js from its V8 code cache (src/core/cache/codeCache.ts, which needs the CLI's
 * cache directory), so neither may come from dist/core.js itself, nor may what the CLI's
 * option parsing reaches before the cache is installed (fs/userHome, text/rustText it
 * trims HOME and CODEWHALE_HOME with, fs/leadingTilde it expands `~` with, fs/spelledPath
 * it joins the homes with, cache/cacheInWorkspace and fs/folderHolding it refuses a cache
 * inside a workspace folder with): one such import loads the core uncached. Each is small
 * and needs only Node's built-ins.
 */
const FACE_OWN = new Set([
  'cache/cacheDirectory',
  'cache/cacheInWorkspace',
  'cache/codeCache',
  'cache/privateToUser',
  'fs/folderHolding',
  'fs/userHome',
  'fs/leadingTilde',
  'fs/spelledPath',
  'text/rustText',
]);

/** Every core module's id, found on disk so a new module needs no list to be kept. */
function coreModules() {
  return readdirSync(CORE, { recursive: true })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.slice(0, -'.ts'.length))
    .sort();
}

/**
 * Every core module a face built in this process loads from dist/core.js, as the faces'
 * plugin resolved it: the modules dist/core.js must hold.
 */
export const reachedByFaces = new Set();

/**
 * The entry of dist/core.js: one lazy `require` per core module in `reached` (every core
 * module when none is given). A face that loads another fails with the module's id.
 */
export function sharedCoreEntry(reached = coreModules()) {
  const modules = [...new Set(reached)]
    .sort()
    .map((id) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(`./${id}.ts`)}),`)
    .join('\n');
  return {
    contents:
      `const modules = {\n${modules}\n};\n` +
      'exports.load = (id) => {\n' +
      '  if (!Object.hasOwn(modules, id))\n' +
      '    throw new Error(`dist/core.js holds no core module ${id}: build it with the faces that load it (node esbuild.mjs)`);\n' +
      '  return modules[id]();\n' +
      '};\n',
    resolveDir: CORE,
    sourcefile: 'core.js',
    loader: 'js',
  };
}

/**
 * How dist/core.js is built: its entry over `reached`, yaml from its ES modules
 * (scripts/yamlEsm.mjs), zod without its JSON Schema generator (scripts/zodWithoutJsonSchema.mjs),
 * toml-eslint-parser without ESLint's JavaScript visitor keys (scripts/tomlVisitorKeys.mjs),
 * and proper-lockfile over Node's fs rather than graceful-fs. The trust store's lock
 * (trust/storeLock.ts) hands proper-lockfile an fs of its own for every asynchronous call;
 * graceful-fs is only its default, reached by the synchronous mkdir, stat, utimes and rmdir
 * of `doctor --prune`'s lock, where it changes nothing on Node ≥ 20 (its EMFILE queue is for
 * asynchronous calls; its statSync only wraps a negative uid). Loading it replaced process.cwd
 * (by a cached copy) and fs.close/closeSync for the whole process, the extension host every
 * extension shares: 11 KB of dist/core.js, 3.4 KB of the VSIX (issue 15).
 */
export function sharedCoreBuild(reached) {
  return {
    stdin: sharedCoreEntry(reached),
    plugins: [yamlEsm, zodWithoutJsonSchema, tomlVisitorKeys],
    alias: { 'graceful-fs': 'node:fs' },
  };
}

/** The faces' plugin: an import that resolves into src/core becomes `require('./core.js').load(id)`. */
export const sharedCore = {
  name: 'shared-core',
  setup(build) {
    const known = new Set(coreModules());
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      // The one import a stand-in makes: the shared bundle beside the face in dist/.
      if (args.namespace === NAMESPACE) return { path: args.path, external: true };
      const file = path.resolve(args.resolveDir, args.path);
      if (!file.startsWith(CORE + path.sep)) return undefined;
      const id = path.relative(CORE, file).split(path.sep).join('/').replace(/\.ts$/, '');
      const found = [id, `${id}/index`].find((m) => known.has(m));
      if (!found) return { errors: [{ text: `${args.path} is not a core module the shared bundle holds` }] };
      if (FACE_OWN.has(found)) return undefined;
      reachedByFaces.add(found);
      return { path: found, namespace: NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      contents: `module.exports = require('./core.js').load(${JSON.stringify(args.path)});\n`,
      loader: 'js',
    }));
  },
};
