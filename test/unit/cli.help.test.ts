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
});
