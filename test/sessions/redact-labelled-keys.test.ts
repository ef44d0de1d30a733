// A key named in words, as a label, kept its value: `aws configure`'s prompt with the secret typed after it
// (AWS's own example: `AWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`), "secret key: …",
// "API key: <32 hex>", 「APIキーは … です」. No rule saw them: the name holds spaces or is Japanese, and such a key
// has no vendor format. The value must be one word of 16 or more characters holding a digit: over the handbook,
// the Obsidian Hub and the real transcripts (12 lines with such a label) no line more is redacted.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/sessions/redact.js';

const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const HEX = '3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d';

describe('a key given after a label in words is redacted', () => {
  it.each([
    [`AWS Secret Access Key [None]: ${AWS_SECRET}`, `AWS Secret Access Key [None]: ${REDACTED}`],
    [`AWS Secret Access Key [****************EKEY]: ${AWS_SECRET}`, `AWS Secret Access Key [****************EKEY]: ${REDACTED}`],
    [`secret key: ${AWS_SECRET}`, `secret key: ${REDACTED}`],
    [`Secret access key: ${AWS_SECRET}.`, `Secret access key: ${REDACTED}.`],
    [`API key: ${HEX}`, `API key: ${REDACTED}`],
    [`the API Key: \`${HEX}\``, `the API Key: \`${REDACTED}\``],
    [`Access token: "${HEX}"`, `Access token: "${REDACTED}"`],
    [`APIキー：${HEX}`, `APIキー：${REDACTED}`],
    [`APIキーは ${HEX} です`, `APIキーは ${REDACTED} です`],
    [`APIキーは${HEX}です`, `APIキーは${REDACTED}です`],
    [`アクセストークン：「${HEX}」`, `アクセストークン：「${REDACTED}」`],
  ])('%s', (text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
    expect(redactSecrets(redacted)).toBe(redacted);
  });

  it.each([
    'AWS Access Key ID [None]: none yet',
    'Default region name [None]: us-west-2',
    'API key: see the dashboard',
    'Secret key: required',
    'API key: v2-compatible',
    'API key: YOUR_API_KEY_HERE',
    'API key: <your-api-key-1234567>',
    'Access token: ${ACCESS_TOKEN_2024_PROD}',
    'APIキーは管理画面で発行します',
    'シークレットは `kv-v2/data/projects/88/ci/DB_PASS` の下に保存されます',
    // Where the key is, not the key: an environment variable's name, 「…に」 (as after パスワードは).
    'API key: ANTHROPIC_API_KEY_PROD2',
    'APIキーは OPENAI_API_KEY_2024 に設定',
    'APIキーは abcdef0123456789abcd に保存',
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));
});
