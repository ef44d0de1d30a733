// The second adversarial pass over redaction: secrets the first pass's rules let through, each found by
// ingesting a transcript that held it (prompt, answer, Bash command, file path) and reading the note.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/sessions/redact.js';

/** [input, exactly what the note must show] */
const REDACTS: Array<[string, string]> = [
  // JSON inside a JSON string or a shell string: its quotes are escaped (`curl -d "{\"password\":\"x\"}"`).
  ['{\\"password\\":\\"JsonEsc123\\"}', `{\\"password\\":\\"${REDACTED}\\"}`],
  ['{\\"api_key\\": \\"JsonEsc456\\", \\"user\\": \\"bob\\"}', `{\\"api_key\\": \\"${REDACTED}\\", \\"user\\": \\"bob\\"}`],
  ['"{\\\\\\"token\\\\\\":\\\\\\"DblEsc789x\\\\\\"}"', `"{\\\\\\"token\\\\\\":\\\\\\"${REDACTED}\\\\\\"}"`],
  ['curl -d "{\\"username\\":\\"bob\\",\\"password\\":\\"Secret1\\"}" https://x', `curl -d "{\\"username\\":\\"bob\\",\\"password\\":\\"${REDACTED}\\"}" https://x`],
  ['echo "DB_PASSWORD=\\"EnvEsc42\\"" >> .env', `echo "DB_PASSWORD=\\"${REDACTED}\\"" >> .env`],
  // Ruby and PHP hashes: `key => 'literal'`.
  ["'password' => 'PhpPw999',", `'password' => '${REDACTED}',`],
  [':password => "RubyPw1000"', `:password => "${REDACTED}"`],
  ['"api_key"=>"RubyPw1001"', `"api_key"=>"${REDACTED}"`],
  // Passphrases on command lines, and the environment variable sshpass -e reads.
  ['gpg --batch --passphrase GpgPw25 -d x.gpg', `gpg --batch --passphrase ${REDACTED} -d x.gpg`],
  ['keytool -list -keystore k.jks -storepass KtPw28 -keypass KtPw29', `keytool -list -keystore k.jks -storepass ${REDACTED} -keypass ${REDACTED}`],
  ['SSHPASS=Pw4ssh9 sshpass -e ssh host', `SSHPASS=${REDACTED} sshpass -e ssh host`],
  // A sudo password piped in (the way an agent runs sudo without a terminal).
  ["echo 'hunter22' | sudo -S apt-get update", `echo ${REDACTED} | sudo -S apt-get update`],
  ['echo Hunter23 | sudo -kS systemctl restart x', `echo ${REDACTED} | sudo -kS systemctl restart x`],
  ['sudo -S true <<< "hunter24"', `sudo -S true <<< ${REDACTED}`],
  // A registry password piped in the same way (docker, podman, helm registry login --password-stdin).
  ['echo "DockPw77" | docker login -u me --password-stdin ghcr.io', `echo ${REDACTED} | docker login -u me --password-stdin ghcr.io`],
  ['podman login --password-stdin -u me quay.io <<< PodPw78', `podman login --password-stdin -u me quay.io <<< ${REDACTED}`],
  // htpasswd -b takes the password as its last word: after the file and the user, or after the user with -n.
  ['htpasswd -b .htpasswd admin HtPw123', `htpasswd -b .htpasswd admin ${REDACTED}`],
  ['htpasswd -cbB /etc/nginx/.htpasswd admin "Ht Pw 124" && nginx -s reload', `htpasswd -cbB /etc/nginx/.htpasswd admin ${REDACTED} && nginx -s reload`],
  ['htpasswd -nbB admin HtPw125', `htpasswd -nbB admin ${REDACTED}`],
  ['htpasswd -nb admin HtPw126 > .htpasswd', `htpasswd -nb admin ${REDACTED} > .htpasswd`],
  // An XML element named as a secret (Maven's settings.xml, .NET and Java configs).
  ['<server><id>repo</id><username>bob</username><password>XmlPw777</password></server>', `<server><id>repo</id><username>bob</username><password>${REDACTED}</password></server>`],
  ['<apiKey>Zq8sLmP2vN5</apiKey>', `<apiKey>${REDACTED}</apiKey>`],
];

/** Code and references that must come out exactly as they went in. */
const KEEPS = [
  '{\\"password\\": null, \\"token_type\\": \\"Bearer\\"}',
  '{\\"token\\": \\"$GITHUB_TOKEN\\"}',
  "'password' => env('DB_PASSWORD'),",
  "'password' => $password,",
  'const check = (token) => token.trim();',
  'tokens.map(token => token.length)',
  '.then(password => hash(password))',
  'gpg --passphrase-fd 0 -d x.gpg',
  'keytool -storepass $STOREPASS',
  'SSHPASS=$PW sshpass -e ssh host',
  'echo $PW | sudo -S apt-get update',
  'echo y | sudo pacman -S vim',
  'echo hello | sudo tee /etc/motd',
  'echo $CR_PAT | docker login ghcr.io -u me --password-stdin',
  'aws ecr get-login-password | docker login --password-stdin 1234.dkr.ecr.us-east-1.amazonaws.com',
  'htpasswd -c .htpasswd admin',
  'htpasswd -nB admin',
  'htpasswd -b .htpasswd admin "$ADMIN_PW"',
  '<password>${env.NEXUS_PASSWORD}</password>',
  '<username>bob</username>',
];

describe('redactSecrets: the second pass', () => {
  it.each(REDACTS)('%s', (input, expected) => {
    const out = redactSecrets(input);
    expect(out).toBe(expected);
    expect(redactSecrets(out)).toBe(out);
  });

  it.each(KEEPS)('keeps: %s', (text) => expect(redactSecrets(text)).toBe(text));
});
