// A password told in prose — typed into a prompt or written by the model — reached the session note as it
// was: "my password is hunter2" and 「パスワードはhunter2です」 had no key, flag or format for a rule to see.
// Kept: prose where the word after "is" / は is no password (checked against the handbook, the Obsidian Hub,
// Obsidian Help in both languages and a TIL vault: one line there is redacted, the handbook's
// 「パスワードは `admin` です」, a default password). The forms added later ("is:", "is now", "set to",
// "password for …:", 「パスワード：…」) changed one line of the 4,238 in those vaults, the tldr pages and the
// real transcripts that name a password: the handbook's demo login 「パスワード: `developer`」.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/sessions/redact.js';

describe('a password told in prose is redacted', () => {
  it.each([
    ['my password is hunter2', `my password is ${REDACTED}`],
    ['my password is hunter2.', `my password is ${REDACTED}.`],
    ['The password is `s3cr3t!`', `The password is \`${REDACTED}\``],
    ['the password is "correct horse battery"', `the password is "${REDACTED}"`],
    ['the db password for staging is Xy7#kq, use it', `the db password for staging is ${REDACTED}, use it`],
    ['the passphrase was tr0ub4dor&3', `the passphrase was ${REDACTED}`],
    ['the PIN is 4821', `the PIN is ${REDACTED}`],
    ['パスワードはhunter2です', `パスワードは${REDACTED}です`],
    ['パスワードは `admin` です。', `パスワードは \`${REDACTED}\` です。`],
    ['暗証番号は 4821。', `暗証番号は ${REDACTED}。`],
    ['パスワードは「abcd1234」', `パスワードは「${REDACTED}」`],
    ['ルーターのパスワードが Abc12345', `ルーターのパスワードが ${REDACTED}`],
    // "is:", "is now", "was set to", and a label that says whose it is; a Japanese label with either colon.
    ['the password is: hunter2', `the password is: ${REDACTED}`],
    ['the wifi password is set to hunter2!', `the wifi password is set to ${REDACTED}!`],
    ['the password is now Xy7#kq', `the password is now ${REDACTED}`],
    ['password for the staging db: Xy7#kq', `password for the staging db: ${REDACTED}`],
    ['パスワード：hunter2', `パスワード：${REDACTED}`],
    ['暗証番号: 4821', `暗証番号: ${REDACTED}`],
    ['ユーザー名: `developer` パスワード: `developer` でログイン', `ユーザー名: \`developer\` パスワード: \`${REDACTED}\` でログイン`],
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));

  // A Japanese password followed by more of the sentence, not only by its end: only です/だ/。/the line's end
  // counted, and these were kept verbatim.
  it.each([
    ['パスワードはPWja65x、ユーザーはadmin', `パスワードは${REDACTED}、ユーザーはadmin`],
    ['パスワード：PWja61x で接続して', `パスワード：${REDACTED} で接続して`],
    ['Wi-Fiのパスワードは PWja66x なので設定して', `Wi-Fiのパスワードは ${REDACTED} なので設定して`],
    ['パスワードはPWja64xで接続', `パスワードは${REDACTED}で接続`],
    ['パスワードは PWja68x と入力して', `パスワードは ${REDACTED} と入力して`],
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));

  // The prose rule names a passcode; a passcode as a key or label was no secret key (`pw:` and `passphrase:` were).
  it.each([
    ['iPhone passcode: 4821', `iPhone passcode: ${REDACTED}`],
    ['DOOR_PASSCODE=4821', `DOOR_PASSCODE=${REDACTED}`],
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));

  it('twice is once', () => {
    for (const t of ['my password is hunter2', 'the password is "x y"', 'パスワードは「abcd1234」']) {
      expect(redactSecrets(redactSecrets(t))).toBe(redactSecrets(t));
    }
  });
});

describe('prose about passwords stays', () => {
  it.each([
    'the password is wrong',
    'the password is stored in 1Password',
    'the password is 12 characters long', // too short to be one
    'password was reset yesterday',
    'We need a password reset flow.',
    'if password is None: return',
    'the password is $DB_PASSWORD',
    'the password is <your password>',
    'pin the version to 2.1.4', // "pin", the verb
    'use password hunter2 to log in', // no "is": left to the key rules, as before
    'パスワードは間違っています',
    'パスワードは 1Password に保存してあります',
    'パスワードはObsidianアカウントとは別です',
    'パスワード、ポート、ルールは「開いたドア」',
    'password is set to expire',
    'the password is set in .env',
    'Password reset: 2024-01-01', // a label without "for …" is the key rules' to judge
    'パスワード: 設定画面で変更',
    'パスワード：必須',
    'パスワードを変更する手順',
    'パスワードはBitwardenに保存', // where it is kept, the space left out
    'パスワードはGoogleアカウントと同じ', // a word the ASCII starts
    'パスワードはSSO認証で不要',
  ])('%s', (text) => expect(redactSecrets(text)).toBe(text));
});
