import { strict as assert } from 'node:assert';
import { loadWithVscode } from './helpers/vscodeStandIn';

type ReadonlyDocuments = typeof import('../../src/extension/documents/readonlyDocuments');

/**
 * The tab title of Explain Decision: the bundle's name (repository text) reduced to safe
 * characters, trimmed of spaces and dots at both ends, at most 60 characters.
 */
describe('the Explain tab title: a safe name, whatever the bundle calls itself', () => {
  const { tabTitle } = loadWithVscode(
    () => require('../../src/extension/documents/readonlyDocuments') as ReadonlyDocuments,
  );

  it('replaces unsafe runs, trims spaces and dots at both ends, and cuts at 60', () => {
    assert.equal(tabTitle('  .my plugin/v2 . '), 'my plugin_v2');
    assert.equal(tabTitle('a\u202eb\nc'), 'a_b_c');
    assert.equal(tabTitle(' . . '), 'item');
    assert.equal(tabTitle(''), 'item');
    assert.equal(tabTitle(`${'x'.repeat(70)}`), 'x'.repeat(60));
  });

  it('trims an Eva id of a megabyte of ` .` within the default timeout', () => {
    // `/[ .]+$/` tried each run of spaces and dots to the end of the name: minutes.
    assert.equal(tabTitle(`a${' .'.repeat(500_000)}b`), `a${' .'.repeat(29)} `);
    assert.equal(tabTitle(`${' .'.repeat(500_000)}a`), 'a');
    assert.equal(tabTitle(`a${' .'.repeat(500_000)}`), 'a');
  });
});
