// `npm run mutate [-- <stryker run options>]`: StrykerJS over the core (stryker.config.mjs),
// with scripts/stryker-compat.cjs preloaded in Stryker and in its test runner workers.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compat = join(root, 'scripts', 'stryker-compat.cjs');
const bin = join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(compat)}`.trim() };
const run = spawn(process.execPath, [bin, 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env });
// Stopping this script stops Stryker, which stops its workers.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => run.kill(signal));
run.on('exit', (code) => process.exit(code ?? 1));
