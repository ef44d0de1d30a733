// Redaction reads a pasted prompt or answer of megabytes inside the Stop hook (30 s before Claude Code kills
// it), so every rule must cost linear time. These inputs took minutes before the rules were made linear
// (a 0.94 MB line of localhost URLs: 8.7 s; 2 MB: over 30 s); each now takes milliseconds. The limit below
// is generous on purpose: it tells "linear" from "quadratic", never a fast machine from a slow one.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/sessions/redact.js';

const LINEAR = { timeout: 10_000 };

/** One space-less JSON line of `count` items, each with a `http://localhost:8080/…` URL (the reviewer's paste). */
const itemsJson = (count: number) => JSON.stringify(Array.from({ length: count }, (_, i) => ({ id: i, self: `http://localhost:8080/api/items/${i}` })));

describe('URL credentials, head by head', () => {
  it('still sees a credential after a URL with a port on the same space-less line', () => {
    // The old rule took `8080/x","db":"postgres://app:` for the localhost URL's password, kept it (a port and
    // a path), and went on after the postgres URL's host: the credential stayed.
    const line = '{"api":"http://localhost:8080/x","db":"postgres://app:hunter22@db.internal:5432/app"}';
    expect(redactSecrets(line)).toBe(`{"api":"http://localhost:8080/x","db":"postgres://app:${REDACTED}@db.internal:5432/app"}`);
  });

  it('reads a 2 MB line of URLs once: nothing redacted, and a credential at its end still found', LINEAR, () => {
    const json = itemsJson(64_000);
    expect(json.length).toBeGreaterThan(2_000_000);
    expect(redactSecrets(json)).toBe(json);
    const tail = `${json.slice(0, -1)},"https://bob:s3cret@github.com/x"]`;
    expect(redactSecrets(tail)).toBe(`${json.slice(0, -1)},"https://bob:${REDACTED}@github.com/x"]`);
  });

  it('reads a 2 MB run of scheme-like words (`a.a.a.…`) once', LINEAR, () => {
    const run = 'a.'.repeat(1_000_000);
    expect(redactSecrets(run)).toBe(run);
  });
});

describe('key = value, key by key', () => {
  it('reads a run of secret keys after full-width colons once (`password：hunter22：…`, 380 KB)', LINEAR, () => {
    // Each key's value was read to the end of the run, then cut at the next full-width colon: 53 s for 360 KB.
    const run = 'password：hunter22：'.repeat(20_000);
    expect(redactSecrets(run)).toBe(`password：${REDACTED}：`.repeat(20_000));
  });

  it('reads a 1 MB colon dump (a MAC-address list) once, and still redacts a secret key after it', LINEAR, () => {
    const dump = Array.from({ length: 350_000 }, (_, i) => (i % 256).toString(16).padStart(2, 'a')).join(':');
    expect(redactSecrets(dump)).toBe(dump);
    expect(redactSecrets(`${dump} DB_PASSWORD=hunter22`)).toBe(`${dump} DB_PASSWORD=${REDACTED}`);
  });

  it('reads a value in escaped quotes holding a long run of backslashes once', LINEAR, () => {
    // A backslash run could be split any number of ways: 28 backslashes took 1.4 s, each one more doubled it.
    const run = `password=\\"${'\\'.repeat(100_000)}x`;
    expect(redactSecrets(run).endsWith(`${'\\'.repeat(100_000)}x`)).toBe(true);
    expect(redactSecrets(`{\\"token\\":\\"${'a\\'.repeat(200_000)}b\\"}`)).toBe(`{\\"token\\":\\"${REDACTED}\\"}`);
  });

  it('reads a 1.35 MB line of secret keys with values once (the line start is looked for near the key)', LINEAR, () => {
    // Each secret key looked back for its line's start: 40,000 pairs took 2.2 s, 150,000 over 30 s.
    const line = ' -X pass:'.repeat(150_000);
    expect(redactSecrets(line)).toBe(` -X${' pass: [REDACTED]'.repeat(149_999)} pass:`);
  });

  it('still looks inside a value that is itself key=value', () => {
    expect(redactSecrets('Endpoint=https://x.blob.core.windows.net/;AccountKey=abc123xyz==')).toContain(`AccountKey=${REDACTED}`);
  });
});

describe('URL-encoded key=value, key by key', () => {
  it('reads a 2 MB run of encoded pairs once, and still redacts an encoded secret after it', LINEAR, () => {
    const run = 'a%3D'.repeat(500_000);
    expect(redactSecrets(run)).toBe(run);
    expect(redactSecrets(`${run} password%3Dhunter22`)).toBe(`${run} password%3D${REDACTED}`);
  });
});

describe("Dockerfile's ENV NAME value", () => {
  it('reads a value followed by a long run of blanks once', LINEAR, () => {
    // A lazy value that ended before the line's trailing blanks rescanned them at every step: 200 KB took 15 s.
    const line = `ENV API_TOKEN a${' '.repeat(100_000)}${'x '.repeat(50_000)}`;
    expect(redactSecrets(line)).toBe(`ENV API_TOKEN ${REDACTED} `);
  });
});
