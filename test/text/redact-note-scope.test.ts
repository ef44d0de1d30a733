// A note the user wrote is redacted more narrowly than a session note (text/redact.ts, redactNoteSecrets):
// the format rules as for a transcript, the key-name rules only where the value looks made by a machine.
import { describe, expect, it } from 'vitest';
import { redactNoteSecrets, redactNoteSecretsKeepingLines, redactSecrets, REDACTED } from '../../src/text/redact.js';
import { CODE_LINES, SECRETS, SSH_KEY } from '../helpers/secret-notes.js';

describe('redactNoteSecrets: a note the user wrote', () => {
  it.each(CODE_LINES)('keeps %s (which a session note loses)', (line) => {
    expect(redactSecrets(line)).not.toBe(line);
    expect(redactNoteSecrets(line)).toBe(line);
  });

  it.each([
    [`aws_secret_access_key = ${SECRETS.awsSecret}`, `aws_secret_access_key = ${REDACTED}`],
    [`DB_PASSWORD=${SECRETS.dbPassword}`, `DB_PASSWORD=${REDACTED}`],
    [`the key ${SECRETS.awsKeyId} is ours`, `the key ${REDACTED} is ours`],
    [`token: ${SECRETS.githubToken}`, `token: ${REDACTED}`],
    ['-H "Authorization: Bearer gErypPlm4dOVgGRvA1ZzMH5MQ3nLo8bo"', `-H "Authorization: Bearer ${REDACTED}"`],
    ['psql postgres://app:Xk29vLq8Rt5mWz3p@db.example.com/app', `psql postgres://app:${REDACTED}@db.example.com/app`],
    ['curl "https://api.example.com/v1?api_key=a8F3kL9mQ2xZ7vB4&user=me"', `curl "https://api.example.com/v1?api_key=${REDACTED}&user=me"`],
    ['- name: DB_PASSWORD\n  value: "Zq81mXv73LpR04tW"', `- name: DB_PASSWORD\n  value: "${REDACTED}"`],
  ])('redacts what looks made by a machine: %s', (line, want) => {
    expect(redactNoteSecrets(line)).toBe(want);
    expect(redactSecrets(line)).toBe(want);
  });

  // A machine-made word (looksMachineMade, one regex test): 16 or more key characters, a digit and a letter
  // among those same characters; the word ends at any other character.
  it.each([
    ['DB_PASSWORD=abcdefghijklmno1', `DB_PASSWORD=${REDACTED}`],
    ['DB_PASSWORD=1bcdefghijklmnop', `DB_PASSWORD=${REDACTED}`],
    ['DB_PASSWORD=a+b/c=d_e.f~g-h1234', `DB_PASSWORD=${REDACTED}`],
    ['DB_PASSWORD=abcdefghijklmn1', 'DB_PASSWORD=abcdefghijklmn1'],
    ['DB_PASSWORD=abcdefghijklmnop', 'DB_PASSWORD=abcdefghijklmnop'],
    ['DB_PASSWORD=1234567890123456', 'DB_PASSWORD=1234567890123456'],
    ['DB_PASSWORD=abcdefghijklmnop!1', 'DB_PASSWORD=abcdefghijklmnop!1'],
    ['DB_PASSWORD=abcdefgh!12345678', 'DB_PASSWORD=abcdefgh!12345678'],
    ['DB_PASSWORD=abcdefghijklmnop x1234567890123456', 'DB_PASSWORD=abcdefghijklmnop x1234567890123456'],
  ])('a machine-made word at its bounds: %s', (line, want) => {
    expect(redactNoteSecrets(line)).toBe(want);
  });

  it('a hand-written short password stays in a note and goes from a session note', () => {
    expect(redactNoteSecrets('DB_PASSWORD=hunter2')).toBe('DB_PASSWORD=hunter2');
    expect(redactSecrets('DB_PASSWORD=hunter2')).toBe(`DB_PASSWORD=${REDACTED}`);
  });

  it('a key block goes whole, and keeps its line breaks where asked', () => {
    const block = ['-----BEGIN OPENSSH PRIVATE KEY-----', ...SSH_KEY, '-----END OPENSSH PRIVATE KEY-----'].join('\n');
    expect(redactNoteSecrets(`key:\n${block}\nafter`)).toBe(`key:\n${REDACTED}\nafter`);
    expect(redactNoteSecretsKeepingLines(`key:\n${block}\nafter`).split('\n')).toHaveLength(SSH_KEY.length + 4);
  });
});
