import { strict as assert } from 'node:assert';
import { USAGE } from '../../src/cli/options';

/** `skillgate --help` against cli.md's command table: each command, with what cli.md says it takes and shows. */
describe('skillgate --help as cli.md states the commands', () => {
  /** The help's line for a command (its synopsis and description), joined with a wrapped description. */
  const entry = (synopsis: string): string => {
    const lines = USAGE.split('\n');
    const at = lines.findIndex((l) => l.startsWith(`  ${synopsis} `) || l === `  ${synopsis}`);
    assert.ok(at >= 0, `no help line for ${synopsis}`);
    const wrapped = lines.slice(at + 1).findIndex((l) => !/^ {20,}\S/.test(l));
    return lines.slice(at, at + 1 + (wrapped < 0 ? 0 : wrapped)).join(' ');
  };

  it('lists every command cli.md has', () => {
    for (const synopsis of [
      'list',
      'validate [--format text|json|sarif]',
      'show <selector>',
      'explain <selector>',
      'review <selector>',
      'trust <selector> <token>',
      'enable <selector>',
      'disable <selector>',
      'revoke <selector>',
      'check',
      'lock [--lock <file>]',
      'check --lock [<file>] [--format text|json|sarif]',
      'hash <bundle-dir>',
      'doctor [--repair] [--prune]',
      'install <manifest> [--name <n>] [--overwrite]',
    ])
      entry(synopsis);
  });

  it('says `show` gives the inventory, files, hashes, trust, decision and diagnostics', () => {
    assert.match(entry('show <selector>'), /inventory, files, hashes, trust, decision, diagnostics/);
  });

  it('says `hash` takes a bundle directory or a manifest file', () => {
    assert.match(entry('hash <bundle-dir>'), /bundle directory or manifest file/);
  });

  // The CLI's code cache of its own core lives in the cache directory too, and --no-cache turns it
  // off as well (docs/code-cache.md, the README's option table): a help naming only the parse cache
  // leaves a user who wants no bytecode written believing --no-cache is not enough, or not needed.
  it('says --cache-dir holds the parse and the code cache, and --no-cache turns both off', () => {
    assert.match(entry('--cache-dir <dir>'), /parse cache and the CLI's code cache/);
    assert.match(entry('--no-cache'), /no parse cache and no code cache/);
  });
});
