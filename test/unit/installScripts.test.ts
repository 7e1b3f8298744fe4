import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const INSTALL_HOOKS = ['preinstall', 'install', 'postinstall'];

/**
 * npm 11 skips a dependency's install scripts unless package.json `allowScripts` names it,
 * and warns about every package it skipped. Each such package is decided here, on purpose:
 * an install that runs nothing unreviewed, and prints no warning.
 */
describe('install scripts of dependencies', () => {
  it('are each allowed or denied in package.json allowScripts, so `npm ci` is quiet and deliberate', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      // An optional dependency npm did not install on this platform (keytar) runs nothing.
      .filter(([key, p]) => key !== '' && p.hasInstallScript === true && fs.existsSync(path.join(ROOT, key)))
      .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
    assert.ok(withScripts.length > 0, 'the lock names packages with install scripts (esbuild has one)');
    const undecided = [...new Set(withScripts)].filter((name) => typeof manifest.allowScripts?.[name] !== 'boolean');
    assert.deepEqual(
      undecided,
      [],
      `decide each in allowScripts (npm install-scripts approve|deny): ${undecided.join(', ')}`,
    );
  });

  it('names only hooks that exist: every decided package has an install script', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };
    for (const name of Object.keys(manifest.allowScripts ?? {})) {
      const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
        scripts?: Record<string, string>;
      };
      assert.ok(
        INSTALL_HOOKS.some((h) => pkg.scripts?.[h]),
        `${name} has no install script`,
      );
    }
  });
});
