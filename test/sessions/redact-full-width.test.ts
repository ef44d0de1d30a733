// A key and its value separated by a full-width colon or equals sign (`：` `＝`, what a Japanese input method
// types) kept the value: `DB_PASSWORD：hunter2` and `パスワード＝hunter2` reached the session note as they were,
// while `DB_PASSWORD: hunter2` and `パスワード：hunter2` were redacted. Over the handbook, the Obsidian Hub and the
// real transcripts, no line more is redacted.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/sessions/redact.js';

describe('a full-width separator is read as the ASCII one', () => {
  it.each([
    ['DB_PASSWORD：hunter22', `DB_PASSWORD：${REDACTED}`],
    ['password：hunter22', `password：${REDACTED}`],
    ['PASSWORD＝hunter22', `PASSWORD＝${REDACTED}`],
    ['api_key：「abc123xyz」', `api_key：「${REDACTED}」`],
    ['"client_secret"：『s3cr3t』', `"client_secret"：『${REDACTED}』`],
    ['パスワード＝hunter22', `パスワード＝${REDACTED}`],
    // The Japanese around it stays: the value is a run of ASCII, not the rest of the line as after YAML's `:`.
    ['DB_PASSWORD：hunter22です', `DB_PASSWORD：${REDACTED}です`],
    ['接続先は API_TOKEN＝abc123、ユーザーは admin', `接続先は API_TOKEN＝${REDACTED}、ユーザーは admin`],
  ])('%s', (text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
    expect(redactSecrets(redacted)).toBe(redacted);
  });

  it.each([
    'password：string', // a type, as after `:`
    '説明：パスワード：必須',
    'Note：token の数を数える',
    'max_tokens：4096',
    'パスワード＝必須',
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));
});
