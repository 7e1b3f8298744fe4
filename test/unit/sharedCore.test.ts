import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { parseTomlDocument } from '../../src/core/documents/tomlDocument';
import { NODE_BUNDLE } from './helpers/nodeBundle';

interface SharedCore {
  sharedCore: Plugin;
  sharedCoreBuild: (reached?: Iterable<string>) => Pick<BuildOptions, 'stdin' | 'plugins' | 'alias'>;
  reachedByFaces: ReadonlySet<string>;
}

/** The build's own module (esbuild.mjs builds dist/core.js and its faces with it). */
async function sharedCoreModule(): Promise<SharedCore> {
  const href = pathToFileURL(path.resolve(__dirname, '../../scripts/sharedCore.mjs')).href;
  return (await import(href)) as SharedCore;
}

/** Runs `script` in a Node beside the built core (`core` in scope), with `env`. */
function runBeside(core: string, script: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['-e', `const core = require(${JSON.stringify(core)});\n${script}`], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
}

/**
 * dist/core.js as esbuild.mjs builds it (issue 15: the VSIX ≤ 400 KB): it holds the core
 * modules the faces load, not every module under src/core, and bundles yaml from its ES
 * modules, which esbuild can trim, not its CommonJS build.
 */
describe('the shared core bundle (scripts/sharedCore.mjs)', function () {
  this.timeout(60000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-shared-core-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('records every core module a face loads through the plugin', async () => {
    const { sharedCore, reachedByFaces } = await sharedCoreModule();
    const face = path.join(dir, 'indexWorker.js');
    await build({
      ...NODE_BUNDLE,
      entryPoints: [path.resolve(__dirname, '../../src/extension/indexWorker.ts')],
      outfile: face,
      plugins: [sharedCore],
    });
    const loaded = [...fs.readFileSync(face, 'utf8').matchAll(/require\("\.\/core\.js"\)\.load\("([^"]+)"\)/g)].map(
      (m) => m[1] as string,
    );
    assert.ok(loaded.includes('index/indexer'), loaded.join(', '));
    for (const id of loaded) assert.ok(reachedByFaces.has(id), `${id} is loaded by the face but not recorded`);
  });

  it('holds only the modules it is built for, and names a module it does not hold', async () => {
    const { sharedCoreBuild } = await sharedCoreModule();
    const core = path.join(dir, 'listing-only', 'core.js');
    await build({ ...NODE_BUNDLE, ...sharedCoreBuild(['listing']), outfile: core });
    const held = runBeside(core, `process.stdout.write(typeof core.load('listing').leavesOf);`);
    assert.equal(held.stdout, 'function', held.stderr);
    const other = runBeside(core, `core.load('index/indexer');`);
    assert.notEqual(other.status, 0, 'a module the core was not built for does not load');
    assert.match(other.stderr, /holds no core module index\/indexer/);
  });

  it("bundles yaml's ES modules: Eva's YAML parser prints nothing with LOG_TOKENS or LOG_STREAM set", async () => {
    const { sharedCoreBuild } = await sharedCoreModule();
    const core = path.join(dir, 'eva', 'core.js');
    await build({ ...NODE_BUNDLE, ...sharedCoreBuild(['systems/eva/yamlLibyamlParse']), outfile: core });
    // yaml's CommonJS build logs each token and each CST node to stdout when these are set,
    // which would corrupt `skillgate list --json`.
    const r = runBeside(
      core,
      `const doc = core.load('systems/eva/yamlLibyamlParse').parseLibyamlDocument('name: [a, b]\\n', {});
process.stdout.write(JSON.stringify(doc.toJSON()));`,
      { LOG_TOKENS: '1', LOG_STREAM: '1' },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '{"name":["a","b"]}');
  });

  // proper-lockfile's own fs, graceful-fs, replaces process.cwd and fs.close/closeSync for
  // the whole process when it loads (in the editor, the extension host every extension
  // shares) and weighs 3.4 KB of the VSIX; the lock only ever reaches it for the few
  // synchronous calls of `doctor --prune`'s lock, which graceful-fs passes to Node's own.
  it("takes and releases the trust store lock with Node's fs, leaving fs and process.cwd as Node made them", async () => {
    const { sharedCoreBuild } = await sharedCoreModule();
    const core = path.join(dir, 'lock', 'core.js');
    await build({ ...NODE_BUNDLE, ...sharedCoreBuild(['trust/storeLock']), outfile: core });
    const state = path.join(dir, 'lock', 'state.json');
    const lockDir = `${state}.lock`;
    const r = runBeside(
      core,
      `const fs = require('node:fs');
const before = [fs.close, fs.closeSync, process.cwd, process.chdir];
const lock = core.load('trust/storeLock');
(async () => {
  const release = lock.takeLockWithoutWaiting(${JSON.stringify(state)}, ${JSON.stringify(lockDir)}, 5000);
  const heldSync = fs.statSync(${JSON.stringify(lockDir)}).isDirectory();
  release();
  const taken = await lock.takeWriterLock(${JSON.stringify(state)}, ${JSON.stringify(lockDir)}, 5000);
  const heldAsync = taken.ok && fs.statSync(${JSON.stringify(lockDir)}).isDirectory();
  await taken.lock.release();
  const after = [fs.close, fs.closeSync, process.cwd, process.chdir];
  process.stdout.write(JSON.stringify({
    heldSync, heldAsync, released: !fs.existsSync(${JSON.stringify(lockDir)}),
    patched: ['fs.close', 'fs.closeSync', 'process.cwd', 'process.chdir'].filter((_, i) => before[i] !== after[i]),
  }));
})();`,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { heldSync: true, heldAsync: true, released: true, patched: [] });
  });

  // toml-eslint-parser walks its tree with its TOML visitor keys merged into ESLint's
  // JavaScript ones (eslint-visitor-keys); a TOML tree holds no JavaScript node, so the core
  // merges them into none (scripts/tomlVisitorKeys.mjs): 1 KB of the VSIX.
  it('walks TOML trees without JavaScript visitor keys, finding what the source finds', async () => {
    const { sharedCoreBuild } = await sharedCoreModule();
    const core = path.join(dir, 'toml', 'core.js');
    await build({ ...NODE_BUNDLE, ...sharedCoreBuild(['documents/tomlDocument']), outfile: core });
    assert.ok(
      !fs.readFileSync(core, 'utf8').includes('JSXOpeningElement'),
      "dist/core.js holds ESLint's JavaScript keys",
    );
    // An out-of-range integer is found by walking the tree (tomlDocument.ts, outOfRangeInteger), at any depth.
    const texts = [
      'a = 9223372036854775808\n',
      '[a.b]\nx = [ { y = [1, -9223372036854775809] } ]\n',
      '[[t]]\nk = { i = { j = 9223372036854775807 } }\n',
    ];
    const outcome = (o: ReturnType<typeof parseTomlDocument>) =>
      o.ok ? { value: o.document.value } : { message: o.message, range: o.range };
    const r = runBeside(
      core,
      `const { parseTomlDocument } = core.load('documents/tomlDocument');
const outcome = (o) => (o.ok ? { value: o.document.value } : { message: o.message, range: o.range });
process.stdout.write(JSON.stringify(${JSON.stringify(texts)}.map((t) => outcome(parseTomlDocument('p.toml', t, 64)))));`,
    );
    assert.equal(r.status, 0, r.stderr);
    const expected = texts.map((t) => outcome(parseTomlDocument('p.toml', t, 64)));
    assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(expected)));
    assert.deepEqual(
      expected.map((o) => 'message' in o),
      [true, true, false],
    );
  });

  // zod's classic schemas reach its JSON Schema generator from every schema class; the core
  // never generates JSON Schema (scripts/zodWithoutJsonSchema.mjs): 5 KB of the VSIX.
  it("leaves zod's JSON Schema generation out: schemas parse and report as before, generating one says why it fails", async () => {
    const { sharedCoreBuild } = await sharedCoreModule();
    const core = path.join(dir, 'zod', 'core.js');
    await build({ ...NODE_BUNDLE, ...sharedCoreBuild(['trust/stateSchema']), outfile: core });
    const text = fs.readFileSync(core, 'utf8');
    // Messages only zod's generator holds (zod/v4/core/to-json-schema.js, json-schema-processors.js).
    for (const generatorOnly of ['Cycle detected', 'cannot be represented in JSON Schema'])
      assert.ok(!text.includes(generatorOnly), `dist/core.js holds zod's generator (${generatorOnly})`);
    const r = runBeside(
      core,
      `const s = core.load('trust/stateSchema');
const out = {
  empty: s.stateSchema.safeParse(s.emptyState()).success,
  refused: s.stateSchema.safeParse({ schemaVersion: 2, bundles: {} }).error?.issues.map((i) => i.message),
  minValue: s.bundleStateSchema.shape.generation.minValue,
};
for (const [name, generate] of [
  ['toJSONSchema', () => s.stateSchema.toJSONSchema()],
  ['standard', () => s.stateSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' })],
]) {
  try { generate(); out[name] = 'generated'; } catch (e) { out[name] = e.message; }
}
process.stdout.write(JSON.stringify(out));`,
    );
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.equal(out.empty, true);
    assert.deepEqual(out.refused, ['Invalid input: expected 1']);
    assert.equal(out.minValue, 0, "zod's check summary (aggregateChecks) stays whole");
    for (const name of ['toJSONSchema', 'standard'])
      assert.match(String(out[name]), /JSON Schema generation is left out of dist\/core\.js/, name);
  });
});
