// The yaml package as ES modules in dist/core.js. yaml's `exports` map sends the `node`
// condition (which esbuild sets for platform 'node') to its CommonJS build, `dist/`, and
// every other importer to `default`, `browser/`: the same modules as ES modules, both
// rollup's output of one source (yaml/package.json, `build:node` and `build:browser`).
// From CommonJS esbuild keeps every yaml module whole, each in its own wrapper; from ES
// modules it hoists them and drops what the core never reaches: 16 KB of dist/core.js,
// 5 KB of the VSIX (issue 15). The CommonJS build differs only where it reaches Node:
// - its Parser and Composer write every token and CST node to stdout when LOG_TOKENS or
//   LOG_STREAM is set (yaml's own debugging), which would corrupt `skillgate list --json`;
//   the ES build has no such logging;
// - its warnings go through process.emitWarning, the ES build's through console.warn: yaml
//   warns only from `parse()` and `toJS()` (log.warn's callers), which the core never calls;
// - its YAML 1.1 `!!binary` decodes to a Buffer, the ES build's to a Uint8Array: the core
//   parses with the core schema (systems/eva/yamlDocument.ts), which has no `!!binary`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);

/** The esbuild plugin: `import … from 'yaml'` resolves to the package's `default` export. */
export const yamlEsm = {
  name: 'yaml-esm',
  setup(build) {
    build.onResolve({ filter: /^yaml$/ }, (args) => {
      const manifest = require.resolve('yaml/package.json', { paths: [args.resolveDir] });
      const target = JSON.parse(readFileSync(manifest, 'utf8')).exports?.['.']?.default;
      if (typeof target !== 'string')
        return { errors: [{ text: `${manifest} names no \`default\` export of "." (yaml's ES modules)` }] };
      return { path: path.join(path.dirname(manifest), target) };
    });
  },
};
