import * as fs from 'node:fs';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';

/**
 * The official SARIF 2.1.0 JSON schema (rtm.5, as published on schemastore.org, the `$schema`
 * Skillgate writes), from Microsoft's `@microsoft/jest-sarif` package; only its schema file
 * is used, not its jest matchers. The schema is JSON Schema draft-04 (`id`, draft-04
 * `$schema`), which ajv 8 reads through `ajv-draft-04`; `ajv-formats` checks the `uri`,
 * `uri-reference` and `date-time` formats it names, where a hostile file name would break a URI.
 */
const SCHEMA_FILE = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!compiled) {
    // `unicodeRegExp: false`: the schema's `language` pattern `^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`
    // has a stray `]`, a syntax error under the `u` flag ajv 8 sets by default; JSON Schema
    // draft-04 patterns are ECMA 262 without it. `strict: false`: the schema sets `default`s
    // next to `$ref`s, which draft-04 allows and ajv's strict mode refuses.
    const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    compiled = ajv.compile(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')) as object);
  }
  return compiled;
}

/** Every way `log` breaks the SARIF 2.1.0 schema, one line each (`<JSON pointer> <message> <params>`); empty when valid. */
export function sarifSchemaErrors(log: unknown): string[] {
  const validate = validator();
  if (validate(log)) return [];
  return (validate.errors ?? []).map(
    (e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
  );
}
