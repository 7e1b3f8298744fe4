import { strict as assert } from 'node:assert';
import { decodeJsonBytes } from '../../src/core/systems/rivumi/hookFiles';

/**
 * hooks.json bytes whose first bytes come close to a byte-order mark or a NUL pattern
 * without being one (rivumi.md §4.4): each decodes as Python's `json.detect_encoding`
 * decides, branch by branch. A BOM counts only whole; without one, the NULs among the
 * first four bytes choose UTF-16 or UTF-32, and among two bytes only for a two-byte text.
 */
describe("Rivumi: hooks.json bytes next to each of Python's encoding-detection branches", () => {
  const b = (...bytes: number[]) => Buffer.from(bytes);
  const cases: [string, Buffer, string | undefined][] = [
    ['FF 00 00 00 is no UTF-32 BOM: UTF-32 LE from the first byte', b(0xff, 0, 0, 0, 0x7b, 0, 0, 0), '\u00ff{'],
    ['FF FE 00 01 is the UTF-16 LE BOM, then U+0100', b(0xff, 0xfe, 0, 1), '\u0100'],
    ['01 00 FE FF is UTF-16 LE without a BOM', b(1, 0, 0xfe, 0xff), '\u0001\ufffe'],
    ['00 01 FE FF is UTF-16 BE without a BOM, U+FEFF kept', b(0, 1, 0xfe, 0xff), '\u0001\ufeff'],
    ['00 00 00 FF is UTF-32 BE without a BOM', b(0, 0, 0, 0xff), '\u00ff'],
    ['00 00 FE 00 is UTF-32 BE: two leading NULs choose UTF-32 whatever follows', b(0, 0, 0xfe, 0), '\ufe00'],
    ['00 00 01 00 is UTF-32 BE', b(0, 0, 1, 0), '\u0100'],
    ['31 00 00 31 is UTF-16 LE (a NUL pair, but not three)', b(0x31, 0, 0, 0x31), '1\u3100'],
    ['four bytes of UTF-32 LE', b(0x31, 0, 0, 0), '1'],
    ['FF 7B: no BOM, two bytes without NUL: UTF-8, refused', b(0xff, 0x7b), undefined],
    ['7B FE: UTF-8, refused', b(0x7b, 0xfe), undefined],
    ['FE 7B: UTF-8, refused', b(0xfe, 0x7b), undefined],
    ['7B FF: UTF-8, refused', b(0x7b, 0xff), undefined],
    ['three bytes with NULs are UTF-8', b(0x31, 0, 0), '1\u0000\u0000'],
    ['three bytes starting with NUL are UTF-8', b(0, 0x31, 0), '\u00001\u0000'],
    ['the UTF-16 BE BOM and one odd byte, refused', b(0xfe, 0xff, 0), undefined],
    ['a UTF-8 BOM alone is empty text', b(0xef, 0xbb, 0xbf), ''],
    ['EF BB without BF is UTF-8, refused', b(0xef, 0xbb, 0x7b, 0x7d), undefined],
    ['the UTF-32 BE BOM alone is empty text', b(0, 0, 0xfe, 0xff), ''],
  ];
  for (const [name, input, expected] of cases) it(name, () => assert.equal(decodeJsonBytes(input), expected));
});
