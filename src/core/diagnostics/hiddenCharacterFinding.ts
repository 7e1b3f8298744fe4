import type { Findings } from './findings';
import { codePointLabel, findHiddenCharacters } from '../text/hiddenUnicode';
import { LineMap } from '../text/lineMap';

/** Skillgate's own check: invisible or bidi characters in a skill (a prompt-injection trick). */
export function reportHidden(text: string, file: string, findings: Findings): void {
  const hidden = findHiddenCharacters(text, 20);
  if (hidden.length === 0) return;
  const map = new LineMap(text);
  const first = hidden[0] as (typeof hidden)[number];
  const labels = [...new Set(hidden.map((h) => codePointLabel(h.codePoint)))].join(', ');
  const kind = hidden.some((h) => h.bidi) ? 'bidirectional or invisible' : 'invisible';
  findings.inFile(
    'skillgate.hidden-unicode',
    `skill contains ${hidden.length}${hidden.length === 20 ? '+' : ''} ${kind} Unicode character(s) (${labels}) that can hide instructions from a reviewer`,
    file,
    map.range(first.offset, first.length),
  );
}
