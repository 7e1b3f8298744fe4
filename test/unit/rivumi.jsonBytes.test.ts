import { strict as assert } from 'node:assert';
import { Fixture } from './helpers/fixture';
import { decodeJsonBytes } from '../../src/core/systems/rivumi/hookFiles';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';

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

/**
 * `json.loads(bytes)` decodes with 'surrogatepass' (CPython json/__init__.py:
 * `s.decode(detect_encoding(s), 'surrogatepass')`): an encoded lone surrogate is a
 * character of the text, as the escape `\ud800` is, in every detected encoding.
 */
describe("Rivumi: hooks.json bytes holding an encoded lone surrogate, decoded as Python's json does", () => {
  const b = (...bytes: number[]) => Buffer.from(bytes);
  const utf16le = (s: string) => Buffer.from(s, 'utf16le');
  const cases: [string, Buffer, string | undefined][] = [
    [
      'UTF-8 ED A0 80 is U+D800',
      Buffer.concat([Buffer.from('"x'), b(0xed, 0xa0, 0x80), Buffer.from('"')]),
      '"x\ud800"',
    ],
    ['UTF-8 ED BF BF is U+DFFF', b(0xed, 0xbf, 0xbf), '\udfff'],
    ['UTF-8 with a BOM, then U+DC00', b(0xef, 0xbb, 0xbf, 0xed, 0xb0, 0x80), '\udc00'],
    [
      'a U+FEFF after a surrogate stays (only a leading BOM is dropped)',
      b(0xed, 0xa0, 0x80, 0xef, 0xbb, 0xbf),
      '\ud800\ufeff',
    ],
    ['ED 9F BF is the ordinary U+D7FF', b(0xed, 0x9f, 0xbf), '\ud7ff'],
    ['ED A0 without its last byte is refused', b(0x5b, 0xed, 0xa0), undefined],
    ['a lead byte before ED A0 80 is refused', b(0xe1, 0xed, 0xa0, 0x80), undefined],
    ['an invalid byte elsewhere is still refused', b(0xed, 0xa0, 0x80, 0xff), undefined],
    [
      'UTF-16 LE with a BOM, then a lone U+D800',
      Buffer.concat([b(0xff, 0xfe), utf16le('["'), b(0, 0xd8), utf16le('"]')]),
      '["\ud800"]',
    ],
    ['UTF-16 BE without a BOM, a lone U+DC00', b(0, 0x5b, 0xdc, 0), '[\udc00'],
    ['UTF-16 with an odd byte is refused', Buffer.concat([b(0xff, 0xfe), utf16le('[]'), b(0x20)]), undefined],
    ['UTF-32 LE, a lone U+D800', b(0x5b, 0, 0, 0, 0, 0xd8, 0, 0), '[\ud800'],
    ['UTF-32 BE with a BOM, a lone U+DFFF', b(0, 0, 0xfe, 0xff, 0, 0, 0xdf, 0xff), '\udfff'],
    ['UTF-32 above U+10FFFF is refused', b(0x5b, 0, 0, 0, 0, 0, 0x11, 0), undefined],
  ];
  for (const [name, input, expected] of cases) it(name, () => assert.equal(decodeJsonBytes(input), expected));

  describe('in the load', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    it('loads a hook whose argv holds the raw bytes ED A0 80 (Rivumi reads x\\ud800)', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        Buffer.concat([Buffer.from('{"pre_tool_use":[{"command":["x'), b(0xed, 0xa0, 0x80), Buffer.from('"]}]}')]),
      );
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.hookLoad, p.hooksFile?.valid, p.hooksFile?.hooks.map((h) => [h.valid, h.argv])],
        [null, true, [[true, ['x\ud800']]]],
      );
    });
  });
});
