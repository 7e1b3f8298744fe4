export interface Header {
  readonly magic: string;
  readonly format: number;
  readonly identity: string;
  readonly length: number;
  readonly crc: number;
}

/** The longest header line this identity can have: the space `save` keeps for it. */
export function headerWidth(identity: string): number {
  const widest: Header = { magic: MAGIC, format: FORMAT, identity, length: Number.MAX_SAFE_INTEGER, crc: 0xffffffff };
  return JSON.stringify(widest).length;
}

export const MAGIC = 'skillgate-parse-cache';
/** The layout of the file; the identity covers the layout of each value. */
export const FORMAT = 1;

/** The header line when it names this format and this identity (its length and CRC are checked at the end). */
export function parsedHeader(line: Buffer, identity: string): Header | undefined {
  let header: Partial<Header>;
  try {
    header = JSON.parse(line.toString('utf8')) as Partial<Header>;
  } catch {
    return undefined;
  }
  if (
    header === null ||
    typeof header !== 'object' ||
    header.magic !== MAGIC ||
    header.format !== FORMAT ||
    header.identity !== identity ||
    typeof header.length !== 'number' ||
    typeof header.crc !== 'number'
  )
    return undefined;
  return header as Header;
}
