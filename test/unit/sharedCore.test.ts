import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { NODE_BUNDLE } from './helpers/nodeBundle';

interface SharedCore {
  sharedCore: Plugin;
  sharedCoreBuild: (reached?: Iterable<string>) => Pick<BuildOptions, 'stdin' | 'plugins'>;
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
});
