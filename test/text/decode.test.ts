import { afterEach, describe, expect, it, vi } from 'vitest';

describe('decodeNoteBytes', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  // Every search and prompt hook loads this module and reads no note file: its decoders wait for one.
  it('makes no decoder at load, and each on first use', async () => {
    const made: string[] = [];
    const Real = globalThis.TextDecoder;
    vi.stubGlobal(
      'TextDecoder',
      class extends Real {
        constructor(label?: string, options?: ConstructorParameters<typeof TextDecoder>[1]) {
          super(label, options);
          made.push(`${label}${options?.fatal ? ' fatal' : ''}`);
        }
      },
    );
    vi.resetModules();
    const { decodeNoteBytes } = await import('../../src/text/decode.js');
    expect(made).toEqual([]);
    const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('# ノート')]);
    expect(decodeNoteBytes(utf8)).toEqual({ text: '# ノート', valid: true, encoding: 'utf-8' });
    expect(decodeNoteBytes(utf8).text).toBe('# ノート');
    expect(made).toEqual(['utf-8 fatal']);
    expect(decodeNoteBytes(new Uint8Array([0x61, 0xff, 0x62]))).toEqual({ text: 'a\uFFFDb', valid: false, encoding: 'utf-8' });
    expect(decodeNoteBytes(new Uint8Array([0xff, 0xfe, 0x61, 0x00]))).toEqual({ text: 'a', valid: true, encoding: 'utf-16le' });
    expect(decodeNoteBytes(new Uint8Array([0xfe, 0xff, 0x00, 0x61]))).toEqual({ text: 'a', valid: true, encoding: 'utf-16be' });
    expect(made).toEqual(['utf-8 fatal', 'utf-8', 'utf-16le fatal', 'utf-16be fatal']);
  });
});
