import { strict as assert } from 'node:assert';
import { joinSet } from '../../src/core/hashing/capabilityPairs';
import { rivumiCapabilityHash } from '../../src/core/systems/rivumi/capabilityHash';

/**
 * A set enters a capability hash sorted in byte order of the bytes it stands for
 * (trust.md "Hashes"). A Rivumi hook's argv[0] may spell bytes that are not UTF-8 as lone
 * surrogates (`"\udcff"` in hooks.json is the byte 0xFF, as Rivumi runs it), and those
 * bytes are what is hashed; the sort compared the U+FFFD each lone surrogate became in
 * `Buffer.from`, so two such commands compared equal and kept the hooks' order: the same
 * set hashed two ways, and reordering two hooks read as a change of capabilities.
 */
describe('capability sets in byte order of their raw bytes', () => {
  it('sorts escaped bytes by the bytes themselves, whatever the input order', () => {
    assert.equal(joinSet(['x\udcff', 'x\udcfe']), 'x\udcfe\nx\udcff');
    assert.equal(joinSet(['x\udcfe', 'x\udcff']), 'x\udcfe\nx\udcff');
    // The byte 0xFF sorts after U+FFFF's EF BF BF, not before it as U+FFFD's EF BF BD would.
    assert.equal(joinSet(['x\udcff', 'x\uffff']), 'x\uffff\nx\udcff');
  });

  it('gives one Rivumi capability hash for one set of hook commands', () => {
    const hash = (commands: string[]) => rivumiCapabilityHash(new Map([['hook-commands', joinSet(commands)]]));
    assert.equal(hash(['x\udcff', 'x\udcfe']), hash(['x\udcfe', 'x\udcff']));
  });
});
