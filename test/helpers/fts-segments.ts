// The structure of an FTS5 index, as a test reads it: how many segments each query reads per term.
import { readVarint } from '../../src/index/section-search.js';

/**
 * Segments of an FTS5 index, from its structure record (row 10 of the data table): a 4-byte cookie, an
 * optional 4-byte version marker (FF 00 00 01), then varints: levels, segments.
 */
export function segmentCount(block: Uint8Array): number {
  let i = 4;
  if (block[i] === 0xff && block[i + 1] === 0 && block[i + 2] === 0 && block[i + 3] === 1) i += 4;
  while (block[i] & 0x80) i++; // levels
  i++;
  const segments = readVarint(block.subarray(i));
  if (segments === null) throw new Error('structure record cut short');
  return segments;
}
