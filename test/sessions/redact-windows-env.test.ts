// Windows sets a variable with `setx NAME value` (OpenAI's quickstart: `setx OPENAI_API_KEY "your-api-key-here"`)
// or .NET's `[Environment]::SetEnvironmentVariable("NAME", "value", "User")`. Neither has an `=`, so no rule read
// them as an assignment, and the value of a secret name reached the session note as it was.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/sessions/redact.js';

describe('a secret set the Windows way is redacted', () => {
  it.each([
    ['setx API_TOKEN "abc123def456"', `setx API_TOKEN "${REDACTED}"`],
    ['setx /M DB_PASSWORD hunter22', `setx /M DB_PASSWORD ${REDACTED}`],
    ['SETX GITHUB_TOKEN abc123 /M', `SETX GITHUB_TOKEN ${REDACTED} /M`],
    ['[Environment]::SetEnvironmentVariable("API_TOKEN", "abc123def456", "User")', `[Environment]::SetEnvironmentVariable("API_TOKEN", "${REDACTED}", "User")`],
    ["[System.Environment]::SetEnvironmentVariable('DB_PASSWORD', 'hunter22', 'Machine')", `[System.Environment]::SetEnvironmentVariable('DB_PASSWORD', '${REDACTED}', 'Machine')`],
  ])('%s', (text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
    expect(redactSecrets(redacted)).toBe(redacted);
  });

  it.each([
    'setx PATH "%PATH%;C:\\bin"',
    'setx API_TOKEN %MY_TOKEN%',
    'setx API_TOKEN $env:TOKEN',
    '[Environment]::SetEnvironmentVariable("PATH", "C:\\bin", "User")',
    '[Environment]::SetEnvironmentVariable("API_TOKEN", $token, "User")',
    'the setx command sets token values',
  ])('keeps %s', (text) => expect(redactSecrets(text)).toBe(text));
});
