// Shapes of secrets a third review found in session notes, each with the ordinary text around it that must
// stay: .NET config key/value pairs, fish's `set -x`, archive and openssl passwords, URL query parameters
// named `key`/`sig`, and secrets inside URL-encoded text.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/sessions/redact.js';

describe('.NET / Java config: a value attribute after a secret key or name attribute', () => {
  it.each([
    ['<add key="ApiKey" value="s3cr3tV4lue"/>', `<add key="ApiKey" value="${REDACTED}"/>`],
    ["<add key='ClientSecret' value='abc def 9' />", `<add key='ClientSecret' value='${REDACTED}' />`],
    ['<property name="password" value="hunter2"/>', `<property name="password" value="${REDACTED}"/>`], // Spring, Ant
    ['<param name="db.password" value="Tr0ub4dor&amp;3">', `<param name="db.password" value="${REDACTED}">`],
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
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));
});
