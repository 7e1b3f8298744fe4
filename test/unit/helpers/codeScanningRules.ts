import { gzipSync } from 'node:zlib';

/**
 * What GitHub code scanning requires of an uploaded SARIF log beyond the schema: the
 * properties its "SARIF support for code scanning" page marks required (github/docs
 * content/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning.md,
 * "You must supply an explicit value for any property marked as required. The empty string
 * is not supported for required properties"), the limits over which an upload is rejected
 * (…/troubleshooting-sarif-uploads/results-exceed-limit: 20 runs per file, 25,000 results and
 * 25,000 rules per run, 1,000 locations per result, 20 tags per rule; 10 MB gzip-compressed),
 * and the SARIF 2.1.0 rules the schema cannot say (§3.30 a region's end is not before its start,
 * §3.14.14 an `originalUriBaseIds` URI is absolute and ends with `/`, §3.4.4 a relative
 * `uri` names its base). Returns one line per violation; empty when the log would be accepted.
 */
export function codeScanningViolations(log: unknown): string[] {
  const out: string[] = [];
  const bad = (where: string, what: string) => out.push(`${where}: ${what}`);
  const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
  const obj = (v: unknown): Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const pos = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;

  const root = obj(log);
  if (!text(root.$schema)) bad('/', '$schema is required');
  if (root.version !== '2.1.0') bad('/', `version must be "2.1.0", not ${JSON.stringify(root.version)}`);
  const runs = Array.isArray(root.runs) ? root.runs : [];
  if (runs.length === 0) bad('/', 'runs[] is required');
  if (runs.length > 20) bad('/', `${runs.length} runs exceed 20 per file`);
  const gzipped = gzipSync(JSON.stringify(log)).length;
  if (gzipped > 10 * 1024 * 1024) bad('/', `${gzipped} bytes gzip-compressed exceed 10 MB`);

  runs.forEach((r, ri) => {
    const run = obj(r);
    const at = `/runs/${ri}`;
    const driver = obj(obj(run.tool).driver);
    if (!text(driver.name)) bad(`${at}/tool/driver`, 'name is required');
    if (!Array.isArray(driver.rules)) bad(`${at}/tool/driver`, 'rules[] is required');
    const rules = (Array.isArray(driver.rules) ? driver.rules : []).map(obj);
    if (rules.length > 25000) bad(`${at}/tool/driver`, `${rules.length} rules exceed 25,000`);
    rules.forEach((rule, i) => {
      const where = `${at}/tool/driver/rules/${i}`;
      if (!text(rule.id)) bad(where, 'id is required');
      if (rule.name !== undefined && !(text(rule.name) && rule.name.length <= 255))
        bad(where, 'name is limited to 255 characters');
      for (const key of ['shortDescription', 'fullDescription'] as const) {
        const t = obj(rule[key]).text;
        if (!text(t)) bad(where, `${key}.text is required`);
        else if (t.length > 1024) bad(where, `${key}.text is limited to 1024 characters (${t.length})`);
      }
      if (!text(obj(rule.help).text)) bad(where, 'help.text is required');
      const level = obj(rule.defaultConfiguration).level;
      if (level !== undefined && !['note', 'warning', 'error'].includes(level as string))
        bad(where, `defaultConfiguration.level ${JSON.stringify(level)} is not note, warning or error`);
      const tags = obj(rule.properties).tags;
      if (Array.isArray(tags) && tags.length > 20) bad(where, `${tags.length} tags exceed 20`);
    });
    const ids = rules.map((x) => x.id);

    const bases = obj(run.originalUriBaseIds);
    for (const [name, b] of Object.entries(bases)) {
      const uri = obj(b).uri;
      if (!(text(uri) && /^[a-z][a-z0-9+.-]*:/i.test(uri) && uri.endsWith('/')))
        bad(`${at}/originalUriBaseIds/${name}`, `uri ${JSON.stringify(uri)} must be absolute and end with "/"`);
    }

    if (!Array.isArray(run.results)) bad(at, 'results[] is required');
    const results = (Array.isArray(run.results) ? run.results : []).map(obj);
    if (results.length > 25000) bad(at, `${results.length} results exceed 25,000`);
    results.forEach((result, i) => {
      const where = `${at}/results/${i}`;
      if (!text(result.ruleId)) bad(where, 'ruleId is missing');
      else if (!ids.includes(result.ruleId)) bad(where, `ruleId ${result.ruleId} is not in tool.driver.rules`);
      if (result.ruleIndex !== undefined && rules[result.ruleIndex as number]?.id !== result.ruleId)
        bad(where, `ruleIndex ${String(result.ruleIndex)} does not name rule ${String(result.ruleId)}`);
      if (!text(obj(result.message).text)) bad(where, 'message.text is required');
      const fingerprints = obj(result.partialFingerprints);
      if (Object.keys(fingerprints).length === 0 || !Object.values(fingerprints).every(text))
        bad(where, 'partialFingerprints is required');
      const locations = Array.isArray(result.locations) ? result.locations.map(obj) : [];
      if (locations.length === 0) bad(where, 'locations[] is required (at least one)');
      if (locations.length > 10) bad(where, `${locations.length} locations exceed 10`);
      locations.forEach((l, li) => {
        const lw = `${where}/locations/${li}/physicalLocation`;
        const physical = obj(l.physicalLocation);
        const artifact = obj(physical.artifactLocation);
        const uri = artifact.uri;
        if (!text(uri)) bad(lw, 'artifactLocation.uri is required');
        else if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) {
          if (!uri.startsWith('file:///')) bad(lw, `absolute uri ${uri} is not a file:/// URI`);
          if (artifact.uriBaseId !== undefined) bad(lw, 'an absolute uri takes no uriBaseId');
        } else {
          if (uri.startsWith('/')) bad(lw, `relative uri ${uri} must not start with "/"`);
          if (!text(artifact.uriBaseId) || !(artifact.uriBaseId in bases))
            bad(lw, `relative uri ${uri} needs a uriBaseId defined in originalUriBaseIds`);
        }
        const region = obj(physical.region);
        for (const key of ['startLine', 'startColumn', 'endLine', 'endColumn'] as const)
          if (!pos(region[key])) bad(lw, `region.${key} is required (an integer >= 1)`);
        if (pos(region.startLine) && pos(region.endLine) && pos(region.startColumn) && pos(region.endColumn)) {
          const ends = region.endLine - region.startLine || region.endColumn - region.startColumn;
          if (ends < 0) bad(lw, 'the region ends before it starts');
        }
      });
    });
  });
  return out;
}
