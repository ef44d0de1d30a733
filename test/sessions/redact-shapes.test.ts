// Shapes of secrets a third review found in session notes, each with the ordinary text around it that must
// stay: .NET config key/value pairs, fish's `set -x`, archive and openssl passwords, URL query parameters
// named `key`/`sig`, secrets inside URL-encoded text, Dockerfile's `ENV NAME value`, and shell operators right
// after a password flag.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/sessions/redact.js';

describe('.NET / Java config: a value attribute after a secret key or name attribute', () => {
  it.each([
    ['<add key="ApiKey" value="s3cr3tV4lue"/>', `<add key="ApiKey" value="${REDACTED}"/>`],
    ["<add key='ClientSecret' value='abc def 9' />", `<add key='ClientSecret' value='${REDACTED}' />`],
    ['<property name="password" value="hunter2"/>', `<property name="password" value="${REDACTED}"/>`], // Spring, Ant
    ['<param name="db.password" value="Tr0ub4dor&amp;3">', `<param name="db.password" value="${REDACTED}">`],
    // Java's Properties XML: the key in an attribute, the value as the element's text
    ['<entry key="db.password">hunter2</entry>', `<entry key="db.password">${REDACTED}</entry>`],
    // the value attribute before the key or name attribute
    ['<add value="s3cr3t" key="ApiKey"/>', `<add value="${REDACTED}" key="ApiKey"/>`],
    ["<property value='hunter2' id='p' name='db.password' />", `<property value='${REDACTED}' id='p' name='db.password' />`],
    // the connection string's own Password= was already redacted; it stays so
    [
      '<add name="Db" connectionString="Server=x;Database=y;User Id=sa;Password=Hunter2x;"/>',
      `<add name="Db" connectionString="Server=x;Database=y;User Id=sa;Password=${REDACTED};"/>`,
    ],
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));

  it.each([
    '<add key="Theme" value="dark"/>',
    '<add key="ApiKey" value="$(API_KEY)"/>',
    '<add key="ApiKey" value=""/>',
    '<add name="Db" connectionString="Server=x;Database=y;Integrated Security=true"/>',
    '<property name="timeout" value="30"/>',
    '<entry key="db.user">app</entry>',
    '<entry key="db.password">${DB_PASSWORD}</entry>',
    '<add value="dark" key="Theme"/>',
    '<add value="$(API_KEY)" key="ApiKey"/>',
    '<add value="30" name="timeout"/><add key="ApiKey"/>', // the secret key belongs to another element
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));
});

describe("fish shell's set", () => {
  it.each([
    ['set -x API_TOKEN abc123def456', `set -x API_TOKEN ${REDACTED}`],
    ['set -gx AWS_SECRET_ACCESS_KEY wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY', `set -gx AWS_SECRET_ACCESS_KEY ${REDACTED}`],
    ['set -Ux GITHUB_TOKEN "hunter2 hunter"; and make', `set -Ux GITHUB_TOKEN ${REDACTED}; and make`],
    ['set --export --global db_password hunter2', `set --export --global db_password ${REDACTED}`],
    ['set OPENAI_API_KEY abc123', `set OPENAI_API_KEY ${REDACTED}`],
    // a list variable: every value, up to the end of the command
    ['set -x API_TOKEN abc def', `set -x API_TOKEN ${REDACTED}`],
    ['set -x API_TOKEN abc def; echo hi', `set -x API_TOKEN ${REDACTED}; echo hi`],
    ['set -x API_TOKEN abc "d e" f | cat', `set -x API_TOKEN ${REDACTED} | cat`],
    ['set -x API_TOKEN abc def && make', `set -x API_TOKEN ${REDACTED} && make`],
    ['set -x API_TOKEN abc def\necho hi', `set -x API_TOKEN ${REDACTED}\necho hi`],
    ['set -x API_TOKEN $OTHER abc123', `set -x API_TOKEN ${REDACTED}`], // one value is no reference
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));

  it.each([
    'set -x PATH $PATH /usr/local/bin',
    'set -x PATH a b',
    'set -x API_TOKENS $A $B', // references only
    'set -gx EDITOR vim',
    'set -x TOKEN_LIMIT 4096',
    'set -x API_TOKEN $OTHER_TOKEN',
    'set -x API_TOKEN (cat ~/.config/token)', // fish's command substitution
    'set -e API_TOKEN; echo gone', // erase: no value
    'set -q GITHUB_TOKEN; or echo missing', // query: no value
    'we set token expiry to an hour', // prose: a lower-case name needs an option
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));
});

describe('archive and openssl passwords', () => {
  it.each([
    ['zip -P hunter2 out.zip a.txt', `zip -P ${REDACTED} out.zip a.txt`],
    ['zip -r -P "two words" out.zip dir', `zip -r -P ${REDACTED} out.zip dir`],
    ['unzip -P hunter2 out.zip', `unzip -P ${REDACTED} out.zip`],
    ['7z a -phunter2 out.7z dir', `7z a -p${REDACTED} out.7z dir`],
    ['7za x -p"hunter 2" out.7z', `7za x -p${REDACTED} out.7z`],
    ['unrar x -pS3cret a.rar', `unrar x -p${REDACTED} a.rar`],
    ['openssl enc -aes-256-cbc -pass pass:hunter2 -in a', `openssl enc -aes-256-cbc -pass pass:${REDACTED} -in a`],
    ['openssl pkcs12 -export -passout pass:hunter -passin pass:other', `openssl pkcs12 -export -passout pass:${REDACTED} -passin pass:${REDACTED}`],
    ['openssl enc -aes-256-cbc -k hunter2 -in a', `openssl enc -aes-256-cbc -k ${REDACTED} -in a`], // enc's legacy -k
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));

  it.each([
    'zip -r out.zip dir',
    'unzip -l out.zip && unzip -o out.zip',
    '7z a -r out.7z dir',
    '7z a -p out.7z dir', // a bare -p prompts for the password
    'openssl enc -aes-256-cbc -pass env:BACKUP_PASS -in a',
    'openssl enc -aes-256-cbc -pass file:/run/secrets/pw -in a',
    'openssl rsa -passin stdin -in key.pem',
    'openssl enc -d -pass fd:3 -in a',
    'openssl enc -aes-256-cbc -kfile key.txt -in a',
    'openssl enc -k $PASSPHRASE -in a',
    'sort -k 2 file.txt',
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));
});

describe('a password flag followed by a shell operator has no password', () => {
  it.each([
    'mysql -p;echo hi',
    'mysql -u root -p|cat',
    'mysql -p&&echo done',
    'mysql -p>out.txt',
    'mysql -p<dump.sql',
    '7z a -p;ls',
    'sshpass -p;echo hi',
    'zip -P;echo hi',
    'redis-cli -a ; echo hi',
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));

  it.each([
    ['mysql -pS3cret;echo hi', `mysql -p${REDACTED} hi`], // the unquoted word runs on: leaning to redacting
    ["mysql -p';x' db", `mysql -p${REDACTED} db`], // quoted: the operator is part of the password
    ['mysql -p;echo hi; mysql -phunter2', `mysql -p;echo hi; mysql -p${REDACTED}`],
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));
});

describe("Dockerfile's ENV", () => {
  it.each([
    ['ENV API_TOKEN s3cr3tvalue', `ENV API_TOKEN ${REDACTED}`],
    ['ENV DB_PASSWORD two words here', `ENV DB_PASSWORD ${REDACTED}`], // the old form's value is the rest of the line
    ['RUN make\nENV API_TOKEN s3cr3t\nRUN x', `RUN make\nENV API_TOKEN ${REDACTED}\nRUN x`],
    ['Add `ENV API_TOKEN s3cr3t` to it', `Add \`ENV API_TOKEN ${REDACTED}\` to it`],
    ['ENV API_TOKEN=s3cr3tvalue', `ENV API_TOKEN=${REDACTED}`], // the NAME=value form
    ['ENV A=1 API_TOKEN="s3 cr3t"', `ENV A=1 API_TOKEN="${REDACTED}"`],
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));

  it.each([
    'ENV PATH /usr/bin',
    'ENV NODE_ENV production',
    'ENV API_TOKEN $API_TOKEN',
    'ENV API_TOKEN ${API_TOKEN}',
    'the ENV token is read at start', // prose: no secret-named variable
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));
});

describe('URL query parameters named key and sig', () => {
  it.each([
    ['https://maps.example.com/api?key=AIzaabc123def&q=tokyo', `https://maps.example.com/api?key=${REDACTED}&q=tokyo`],
    ['https://x.blob.core.windows.net/c/b?sv=2022&sig=abc123', `https://x.blob.core.windows.net/c/b?sv=2022&sig=${REDACTED}`],
    ['GET /v1/data?page=2&KEY=s3cret', `GET /v1/data?page=2&KEY=${REDACTED}`],
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));

  it.each([
    '?page=2',
    'https://x.test/a?page=2&sort=asc',
    'https://x.test/a?keyword=lora&signal=-90',
    'the key=value pair', // no query: `key` alone says nothing
    'sort(key=len)',
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));
});

describe('secrets inside URL-encoded text', () => {
  it.each([
    ['GET /login?user=bob&password%3Dhunter2', `GET /login?user=bob&password${'%3D'}${REDACTED}`],
    ['next=https%3A%2F%2Fx%3Fpassword%3Dhunter2%26u%3D1', `next=https%3A%2F%2Fx%3Fpassword%3D${REDACTED}%26u%3D1`],
    ['body=%7B%22api_key%22%3A%22abc123secret%22%7D', `body=%7B%22api_key%22%3A%22${REDACTED}%22%7D`],
    ['%22password%22%3A%20%22hunter%202%22', `%22password%22%3A%20%22${REDACTED}%22`],
    ['redirect=%2Fcb%3Fcode%3D1%26client_secret%3Ds3cr3t%26x%3D2', `redirect=%2Fcb%3Fcode%3D1%26client_secret%3D${REDACTED}%26x%3D2`],
    ['u=%2Fa%3Fkey%3DAIzaabc123', `u=%2Fa%3Fkey%3D${REDACTED}`],
    ['token%3dabc123def', `token%3d${REDACTED}`], // lower-case hex
  ])('%s', (text, redacted) => expect(redactSecrets(text)).toBe(redacted));

  it.each([
    'q=max_tokens%3D4096',
    'u=%2Fsearch%3Fq%3Dtoken%2Bbudget',
    'password%3D%24DB_PASSWORD', // `$DB_PASSWORD`: a reference
    'password%3D%3Cyour%20password%3E', // `<your password>`: a placeholder
    'x=%22token%22%3A%22%22', // empty
    'a%3Db%3Dc%3Dd',
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));
});
