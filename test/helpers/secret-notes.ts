// Notes holding credentials, for the tests of what tsm sends to a model without the user asking (the prompt
// hooks, the MCP tools): the secrets, and a check that a text shows none of them.
import { expect } from 'vitest';

/** A key body: 25 lines of 64 base64 characters (a fixed pseudo-random run, none of them a word). */
export function keyLines(seed: number, count = 25): string[] {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let x = seed;
  const lines: string[] = [];
  for (let l = 0; l < count; l++) {
    let line = '';
    for (let i = 0; i < 64; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      line += abc[(x >>> 8) % 64];
    }
    lines.push(line);
  }
  return lines;
}

export const SECRETS = {
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  awsKeyId: 'AKIAIOSFODNN7EXAMPLE',
  // Machine-made (16+ characters, letters and digits): a user's note loses it (redactNoteSecrets).
  dbPassword: 'hunter2Xq9vLm27Tz',
  githubToken: 'ghp_1234567890abcdefghijABCDEFGHIJ123456',
};
export const SSH_KEY = keyLines(11, 3);
export const CUT_KEY = keyLines(23);
export const MID_KEY = keyLines(37);

export const AWS_NOTE = [
  '# AWS access',
  '',
  'How to connect to the aws db from the laptop.',
  '',
  'In `.aws/credentials`:',
  '```ini',
  '[default]',
  `aws_access_key_id = ${SECRETS.awsKeyId}`,
  `aws_secret_access_key = ${SECRETS.awsSecret}`,
  '```',
  '',
  `DB_PASSWORD=${SECRETS.dbPassword}`,
  '',
  `GitHub token for the deploy: ${SECRETS.githubToken}`,
  '',
  'The bastion key:',
  '',
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  ...SSH_KEY,
  '-----END OPENSSH PRIVATE KEY-----',
  '',
].join('\n');

/** Query words, then a key block: a snippet budget that ends inside the block showed its first lines. */
export const CUT_NOTE = ['# Gateway', '', 'The gateway tunnel key follows.', '-----BEGIN RSA PRIVATE KEY-----', ...CUT_KEY, '-----END RSA PRIVATE KEY-----', ''].join('\n');

/** A key block, then the query words: the snippet's window opened inside the block, past its BEGIN line. */
export const MID_NOTE = ['# Bastion', '', 'The bastion host key, kept here:', '-----BEGIN RSA PRIVATE KEY-----', ...MID_KEY, '-----END RSA PRIVATE KEY-----', 'Zebra deployment goes through the bastion.', ''].join('\n');

/** Text the redactor leaves alone in session notes: injected as written. */
export const PLAIN_NOTE = [
  '# Release checklist',
  '',
  'The password is kept in 1Password. Tag the release at commit 03de26d4f2a1b2c3d4e5f60718293a4b5c6d7e8f',
  'for run 3f9a2c1e-7b4d-4e21-9c0a-5d8e6f1b2a34, keep the token budget at max_tokens=512, and attach the logo',
  '![logo](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==).',
  '',
].join('\n');

/**
 * A developer's note the session rules would redact in places (handbook and TIL lines of that kind): code that
 * names a password, a placeholder, a hand-written test password, a setter's argument, Japanese prose that says
 * where a password is kept. A user's note keeps all of it (redactNoteSecrets): none looks made by a machine.
 */
export const CODE_LINES = [
  'new_user.password = params[:password]',
  'pass: state.matches(value),',
  '- POSTGRES_PASSWORD=postgres',
  "export GL_TOKEN='YOUR_GITLAB_TOKEN'",
  "git config credential.helper 'cache --timeout=300'",
  'ユーザー名とパスワードは Jeff Beaumont の 1Password アカウントに保存されています。',
  '**Merit = 90 以上**、**Pass = 80〜89**、**Needs Development = 80 未満**',
];
export const CODE_NOTE = ['# Signup form notes', '', 'How the signup form keeps the password.', '', ...CODE_LINES, ''].join('\n');

/** `text` holds none of SECRETS, no private key's BEGIN line and no piece of `keyBody`'s lines. */
export function expectNoSecret(text: string, keyBody: string[] = []): void {
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
  // No line of the key body, nor a piece of one (16 characters are no accident).
  for (const line of keyBody) for (let i = 0; i + 16 <= line.length; i += 16) expect(text).not.toContain(line.slice(i, i + 16));
}

