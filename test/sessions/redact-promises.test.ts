// What docs/claude-code.md promises about redaction, case by case from a review: any key whose name says it
// is secret is redacted; references and placeholders stay; a redaction keeps the markdown around it.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/sessions/redact.js';

describe('keys whose name says they are secret', () => {
  it.each([
    ['SECRET_KEY_BASE=4f1a9c0d2e3b4a5c6d7e8f90a1b2c3d4', `SECRET_KEY_BASE=${REDACTED}`], // Rails
    ['APP_SECRET_KEY_BASE=abc123def', `APP_SECRET_KEY_BASE=${REDACTED}`],
    ['SUPABASE_SERVICE_ROLE_KEY=sbkey0123456789', `SUPABASE_SERVICE_ROLE_KEY=${REDACTED}`],
    ['SUPABASE_ANON_KEY=abcd1234xyz', `SUPABASE_ANON_KEY=${REDACTED}`],
    ['PASSWORD_HASH=$2b$12$R9h/cIPz0gi.URNNX3kh2O', `PASSWORD_HASH=${REDACTED}`], // a bcrypt hash is no `$NAME`
    ['https://u:$2b$x@h.example.com/', `https://u:${REDACTED}@h.example.com/`],
    // crypt-format hashes (`$<id>$…`) are no `$NAME` either, and their commas are part of them
    ['PASSWORD_HASH=$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$Rdescudv', `PASSWORD_HASH=${REDACTED}`],
    ['password_hash: $y$j9T$F5Jx5fExrKuPp53xLKQ..1$X3DX6M94c7o', `password_hash: ${REDACTED}`],
    ['hashed_password=$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/', `hashed_password=${REDACTED}`],
    ['f(password=$argon2id$v=19$m=1,t=3,p=4$c2FsdA$aGFzaA, x=1)', `f(password=${REDACTED}, x=1)`],
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));
});

describe('a value that only starts with a placeholder', () => {
  it.each([
    ['password=<b>hunter2</b>', `password=${REDACTED}`],
    ['DB_PASSWORD=<pw>Tr0ub4dor&3', `DB_PASSWORD=${REDACTED}`],
    ['password=<REDACTED>actualpw123', `password=${REDACTED}`],
    ['secret=<abc>def', `secret=${REDACTED}`],
    ['password=<your password>Secr3t! and more', `password=${REDACTED} and more`],
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));
});

describe('references and placeholders stay', () => {
  it.each([
    'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com',
    'curl -H "Authorization: token ${GITHUB_TOKEN}" x',
    'gh api --token $GITHUB_TOKEN',
    'use `Authorization: Bearer <token>` and then retry.',
    '--password <password>',
    'password=<your password>',
    'password=<token>',
    'password=<token>, then run it',
    'password=<your password> and run it',
    'PASSWORD=$GITHUB_TOKEN',
    'TOKEN=${TOKEN}',
    'password=$(cat file)',
    'mysql -u root -p$DB_PASS',
    'sshpass -p $PW ssh host',
    'docker login -u me -p $TOKEN',
    'Cookie: $COOKIE',
    'https://u:${PASS}@h.example.com/',
  ])('%s', (text) => expect(redactSecrets(text)).toBe(text));

  it('a reference in one piece only: a header holding more is still redacted', () => {
    expect(redactSecrets('Cookie: $C; sid=abc123')).toBe(`Cookie: ${REDACTED}`);
  });
});

describe('the markdown around a redacted header', () => {
  it('keeps the closing backtick of inline code and a sentence’s last dot', () => {
    expect(redactSecrets('send `Authorization: Bearer abcdef123456` and then.')).toBe(`send \`Authorization: Bearer ${REDACTED}\` and then.`);
    expect(redactSecrets('It was Authorization: Bearer abc.def.ghi12345.')).toBe(`It was Authorization: Bearer ${REDACTED}.`);
  });
});
