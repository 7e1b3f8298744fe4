// `npm run mutate:changed [-- <stryker options>]`: mutation-tests only the core files this
// branch changed (against `main`, or SKILLGATE_MUTATE_BASE), reusing earlier results
// (--incremental) for the rest. Nothing changed in the mutated areas: nothing to run.
import { execFileSync, spawnSync } from 'node:child_process';

const base = process.env.SKILLGATE_MUTATE_BASE ?? 'main';
const areas = [
  'src/core/trust/',
  'src/core/decisions/',
  'src/core/hashing/',
  'src/core/systems/codewhale/',
  'src/core/systems/rivumi/',
  'src/core/systems/eva/',
];
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
const changed = new Set([
  ...git('diff', '--name-only', `${base}...HEAD`),
  ...git('diff', '--name-only', 'HEAD'),
  ...git('ls-files', '--others', '--exclude-standard'),
]);
const files = [...changed].filter((f) => f.endsWith('.ts') && areas.some((a) => f.startsWith(a))).sort();
if (files.length === 0) {
  console.log(`[mutate:changed] no change in ${areas.join(', ')} since ${base}`);
  process.exit(0);
}
console.log(`[mutate:changed] ${files.join(' ')}`);
const run = spawnSync(
  'npx',
  ['stryker', 'run', '--incremental', '--mutate', files.join(','), ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
process.exit(run.status ?? 1);
