import { strict as assert } from 'node:assert';
import { urlParseErrorText } from '../../src/core/systems/codewhale/urlParseError';

/**
 * The url crate's `ParseError` words for a URL that WHATWG refuses (codewhale.md §4.7,
 * ``MCP server `{n}` URL is invalid: {e}``). Each expectation is what url 2.3.1's
 * `Url::parse` prints for the same text (the oracle under /tmp/url-oracle).
 */
describe("Codewhale URL parse errors in the url crate's words (codewhale.md §4.4, §4.7)", () => {
  const cases: [string, string][] = [
    ['not a url', 'relative URL without a base'],
    ['', 'relative URL without a base'],
    ['//example.com/mcp', 'relative URL without a base'],
    ['https://', 'empty host'],
    ['https:///', 'empty host'],
    ['https://@/', 'empty host'],
    ['https://u@:443/', 'empty host'],
    ['https://exa mple.com/mcp', 'invalid domain character'],
    ['https://bad%zz%00.com/', 'invalid domain character'],
    ['foo://a b/', 'invalid domain character'],
    ['https://example.com:99999/mcp', 'invalid port number'],
    ['https://example.com:12a/', 'invalid port number'],
    ['http://1.2.3.4.5/', 'invalid IPv4 address'],
    ['https://[::1/', 'invalid IPv6 address'],
    ['foo://[x]/', 'invalid IPv6 address'],
  ];
  for (const [url, e] of cases)
    it(`${JSON.stringify(url)}: ${e}`, () => {
      assert.throws(() => new URL(url), 'WHATWG refuses it too');
      assert.equal(urlParseErrorText(url), e);
    });
});
