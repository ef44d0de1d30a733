// The tail of a private key block whose BEGIN line is not in the text (a page of read_note, a section of a long
// note, a transcript's `tail id_rsa`), and redaction that keeps a text's line numbers (read_note).
import { describe, expect, it } from 'vitest';
import { REDACTED, redactNoteSecrets, redactNoteSecretsKeepingLines, redactSecrets } from '../../src/text/redact.js';
import { keyLines } from '../helpers/secret-notes.js';

const BODY = keyLines(5, 6);
const BLOCK = ['-----BEGIN RSA PRIVATE KEY-----', ...BODY, '-----END RSA PRIVATE KEY-----'];

describe('a key block without its BEGIN line', () => {
  it('goes with the key lines before its END line, up to a line of prose', () => {
    const text = ['Key, second half:', ...BODY.slice(3), '-----END RSA PRIVATE KEY-----', 'after it'].join('\n');
    expect(redactSecrets(text)).toBe(`Key, second half:\n${REDACTED}\nafter it`);
  });

  it('at the very start of the text, and in numbered lines (read_note)', () => {
    expect(redactSecrets([...BODY.slice(2), BLOCK.at(-1)].join('\n'))).toBe(REDACTED);
    const numbered = [...BODY.slice(4), BLOCK.at(-1), 'done'].map((l, i) => `${40 + i}\t${l}`).join('\n');
    expect(redactSecrets(numbered)).toBe(`${REDACTED}\n43\tdone`);
  });

  it('an END line after prose on its own line takes only itself; an empty line stops the walk', () => {
    expect(redactSecrets('see -----END RSA PRIVATE KEY----- here')).toBe(`see ${REDACTED} here`);
    expect(redactSecrets(['kept', '', 'AAAA', '-----END EC PRIVATE KEY-----'].join('\n'))).toBe(`kept\n\n${REDACTED}`);
  });

  it('a whole block is still one [REDACTED], and redacting twice changes nothing', () => {
    const text = ['before', ...BLOCK, 'after'].join('\n');
    expect(redactSecrets(text)).toBe(`before\n${REDACTED}\nafter`);
    expect(redactSecrets(redactSecrets(text))).toBe(redactSecrets(text));
  });

  it('reads 20,000 END lines after 200 KB of one line once', { timeout: 10_000 }, () => {
    // Each END looked back to the start of the line (lastIndexOf): quadratic. Now back to the last one only.
    const prose = 'a word, '.repeat(25_000);
    const text = prose + '-----END RSA PRIVATE KEY-----'.repeat(20_000);
    expect(redactSecrets(text) === prose + REDACTED.repeat(20_000)).toBe(true);
  });
});

describe('redactNoteSecretsKeepingLines', () => {
  it('keeps the line breaks of a key block, whole or cut, so every later line keeps its number', () => {
    for (const lines of [['a', ...BLOCK, 'b'], ['a', ...BLOCK.slice(0, 4)], [...BLOCK.slice(3), 'b'], ['a\r', ...BLOCK.map((l) => `${l}\r`), 'b']]) {
      const text = lines.join('\n');
      const kept = redactNoteSecretsKeepingLines(text);
      expect(kept.split('\n')).toHaveLength(lines.length);
      expect(kept).toContain(REDACTED);
      for (const line of BODY) expect(kept).not.toContain(line);
      // A line after the block keeps its place.
      if (lines.at(-1) === 'b') expect(kept.split('\n').at(-1)).toBe('b');
    }
  });

  it('is redactSecrets where no secret spans lines', () => {
    const text = 'DB_PASSWORD=hunter2hunter2\ntoken ghp_1234567890abcdefghijABCDEFGHIJ123456\nplain';
    expect(redactNoteSecretsKeepingLines(text)).toBe(redactNoteSecrets(text));
  });
});
