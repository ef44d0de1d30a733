import { describe, it, expect } from 'vitest';
import { redactSecrets, stripPrivate, redactForNote, REDACTED } from '../../src/sessions/redact.js';

describe('stripPrivate', () => {
  it('removes a closed <private> span and keeps the text around it', () => {
    expect(stripPrivate('before <private>secret plan</private> after')).toBe('before  after');
  });

  it('removes <system-reminder> spans across lines', () => {
    expect(stripPrivate('keep\n<system-reminder>\nnoise\nmore\n</system-reminder>\nalso keep')).toBe('keep\n\nalso keep');
  });

  it('drops everything after an opening tag that is never closed', () => {
    expect(stripPrivate('visible <private>hidden\nstill hidden')).toBe('visible ');
    expect(stripPrivate('visible <system-reminder>cut mid-write')).toBe('visible ');
  });

  it('handles several spans, nesting, attributes and upper case', () => {
    expect(stripPrivate('a<private>1</private>b<PRIVATE>2</PRIVATE>c')).toBe('abc');
    expect(stripPrivate('a<private>x<private>y</private>z</private>b')).toBe('ab');
    expect(stripPrivate('a<private reason="pw">x</private>b')).toBe('ab');
  });

  it('drops a stray closing tag but keeps its surroundings', () => {
    expect(stripPrivate('a</private>b')).toBe('ab');
  });

  it('leaves similar-looking tags alone', () => {
    expect(stripPrivate('<privateer>ship</privateer> and <system-reminders>')).toBe('<privateer>ship</privateer> and <system-reminders>');
  });

  it('returns text without tags unchanged', () => {
    expect(stripPrivate('plain text with < and >')).toBe('plain text with < and >');
  });
});

describe('redactSecrets', () => {
  const cases: Array<[string, string, string]> = [
    ['Anthropic key', 'key sk-ant-api03-Zx8vQ2mN7pL4kR9tW1yB6cH3jF5gD0sA-eXaMpLe here', `key ${REDACTED} here`],
    ['OpenAI key', 'OPENAI sk-proj-4fJ9kL2mN8pQ1rS6tU3vW7xY0zA5bC here', `OPENAI ${REDACTED} here`],
    ['legacy sk- key', 'sk-1234567890abcdefghijklmnopqrstuvwxyzABCDEFGH', REDACTED],
    ['AWS access key id', 'aws AKIAIOSFODNN7EXAMPLE ok', `aws ${REDACTED} ok`],
    ['AWS temporary key id', 'ASIAY34FZKBOKMUTVV7A', REDACTED],
    ['GitHub classic token', 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5', REDACTED],
    ['GitHub OAuth token', 'token is gho_16C7e42F292c6912E7710c838347Ae178B4a', `token is ${REDACTED}`],
    ['GitHub fine-grained token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', REDACTED],
    ['Slack bot token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKl', REDACTED],
    ['Slack user token', 'xoxp-123456789012-abcdefabcdef', REDACTED],
    ['Slack app token', 'xoxa-2-1234567890-abcdefghij', REDACTED],
    ['Google API key', 'AIzaSyD-1234567890abcdefghijklmnopqrstu', REDACTED],
    ['Stripe key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', REDACTED],
    ['npm token', 'npm_abcdefghijklmnopqrstuvwxyz0123456789', REDACTED],
    ['JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlX3ZhbHVl', REDACTED],
    ['bearer token', 'curl -H "Authorization: Bearer abc123def456ghi789jkl" x', `curl -H "Authorization: Bearer ${REDACTED}" x`],
    ['bare bearer token', 'use Bearer 0a1b2c3d4e5f6a7b8c9d0e1f', `use Bearer ${REDACTED}`],
    ['basic auth header', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', `Authorization: Basic ${REDACTED}`],
    ['password assignment', 'password=hunter2 next', `password=${REDACTED} next`],
    ['env token assignment', 'export GITHUB_TOKEN=abc123', `export GITHUB_TOKEN=${REDACTED}`],
    ['quoted api key', 'API_KEY: "k-12345"', `API_KEY: "${REDACTED}"`],
    ['JSON secret', '{"client_secret": "s3cr3t value"}', `{"client_secret": "${REDACTED}"}`],
    ['YAML secret with a digit', 'db_password: hunter2', `db_password: ${REDACTED}`],
    ['single-quoted token', "token = 'abc def'", `token = '${REDACTED}'`],
    ['password containing &', 'Password=Tr0ub4dor&3 is set', `Password=${REDACTED} is set`],
    ['password flag', 'mysql --password hunter2 -h db', `mysql --password ${REDACTED} -h db`],
    ['URL credentials', 'git clone https://bob:s3cret@github.com/x/y', `git clone https://bob:${REDACTED}@github.com/x/y`],
  ];
  for (const [name, input, expected] of cases) {
    it(`redacts a ${name}`, () => expect(redactSecrets(input)).toBe(expected));
  }

  it('redacts a private key block, also when its END line is missing', () => {
    const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----';
    expect(redactSecrets(`key:\n${block}\ndone`)).toBe(`key:\n${REDACTED}\ndone`);
    expect(redactSecrets('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\ncut')).toBe(REDACTED);
  });

  const untouched = [
    'max_tokens=4096 and "input_tokens": 9',
    'token_type=bearer',
    'password: string;',
    'const token = process.env.GITHUB_TOKEN',
    'export API_KEY=$API_KEY',
    'if (token == null) return',
    'risk-assessment-framework-for-everything',
    'Bearer authentication is configured in the gateway',
    'Basic configuration-management is easy',
    'DB_PASSWORD_FILE=/run/secrets/db',
    'ask-questions-before-acting-on-anything',
    'the word secret alone',
  ];
  for (const text of untouched) {
    it(`leaves "${text}" alone`, () => expect(redactSecrets(text)).toBe(text));
  }

  it('is idempotent', () => {
    const text = 'GITHUB_TOKEN=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5 password="x y" Bearer abc123def456ghi789jkl';
    const once = redactSecrets(text);
    expect(redactSecrets(once)).toBe(once);
    expect(once).not.toContain('ghp_');
    expect(once).not.toContain('abc123def456');
  });
});

describe('redactForNote', () => {
  it('strips private spans before redacting', () => {
    expect(redactForNote('a <private>sk-ant-api03-Zx8vQ2mN7pL4kR9tW1yB6cH3</private> password=x1')).toBe(`a  password=${REDACTED}`);
  });
});

describe('redactSecrets: config setters (key and value as two words)', () => {
  it('redacts the value of a secret key set through a config command', () => {
    const cases: [string, string][] = [
      ['aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws configure set aws_secret_access_key [REDACTED]'],
      ['aws configure set default.aws_session_token IQoJb3JpZ2luX2VjEJr//////////wEaCX', 'aws configure set default.aws_session_token [REDACTED]'],
      ['npm config set //registry.example.com/:_authToken 8b2e9f40-1c3d-4e5f-a6b7-c8d9e0f1a2b3', 'npm config set //registry.example.com/:_authToken [REDACTED]'],
      ['yarn config set npmAuthToken 8b2e9f40-1c3d-4e5f-a6b7-c8d9e0f1a2b3', 'yarn config set npmAuthToken [REDACTED]'],
      ['git config --global github.token 8b2e9f401c3d4e5fa6b7c8d9e0f1a2b3', 'git config --global github.token [REDACTED]'],
      ['poetry config pypi-token.pypi s3cretValue99', 'poetry config pypi-token.pypi [REDACTED]'],
      ['dotnet user-secrets set "Api:Secret" s3cretValue99', 'dotnet user-secrets set "Api:Secret" [REDACTED]'],
      ['gh secret set API_KEY --body s3cretValue99', 'gh secret set API_KEY --body [REDACTED]'],
    ];
    for (const [input, expected] of cases) expect(redactSecrets(input)).toBe(expected);
  });

  it('keeps other keys, references, reads and prose', () => {
    for (const text of [
      'aws configure set region us-east-1',
      'npm config set max_tokens 4096',
      'aws configure set aws_secret_access_key $AWS_SECRET_ACCESS_KEY',
      'npm config get _authToken',
      'git config --global --unset github.token',
      'git config user.name Alice',
      'the config token is stale',
    ]) expect(redactSecrets(text)).toBe(text);
  });
});

describe('redactSecrets: a user and a password after a config setter', () => {
  it('redacts the password of a credential-pair key and keeps the user name', () => {
    const cases: [string, string][] = [
      ['poetry config http-basic.myrepo alice S3cretPass', 'poetry config http-basic.myrepo alice [REDACTED]'],
      ['poetry config http-basic.pypi __token__ "pypi value 9"', 'poetry config http-basic.pypi __token__ [REDACTED]'],
      ['composer config --global http-basic.repo.example.org bob hunter2x && composer install', 'composer config --global http-basic.repo.example.org bob [REDACTED] && composer install'],
    ];
    for (const [input, expected] of cases) expect(redactSecrets(input)).toBe(expected);
  });

  it('keeps a user given alone (the tool asks for the password), a reference, and what follows a one-value key', () => {
    for (const text of [
      'poetry config http-basic.myrepo alice',
      'poetry config http-basic.myrepo alice $REPO_PASSWORD',
      // the command ends there: what follows is the next command, a redirection or a comment
      'poetry config http-basic.myrepo alice && poetry install',
      'poetry config http-basic.myrepo alice; echo done',
      'poetry config http-basic.myrepo alice | tee log',
      'poetry config http-basic.myrepo alice > out.txt',
      'poetry config http-basic.myrepo alice # asks for the password',
      'git config user.name Alice && make',
    ]) expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets('git config --global github.token 8b2e9f401c3d && make')).toBe('git config --global github.token [REDACTED] && make');
  });
});

describe('redactSecrets: HTTPie request items', () => {
  it('redacts the value of a secret query parameter item (name==value)', () => {
    expect(redactSecrets('http GET example.com token==abc123secret')).toBe('http GET example.com token==[REDACTED]');
    expect(redactSecrets('http GET example.com api_key==abc123secret page==2')).toBe('http GET example.com api_key==[REDACTED] page==2');
    expect(redactSecrets('https api.test access_token=="a b 9"')).toBe('https api.test access_token=="[REDACTED]"');
  });

  it('redacts header items, quoted or not', () => {
    expect(redactSecrets("http POST api.test Authorization:'Bearer abc123secretxyz' name=bob")).toBe(`http POST api.test Authorization:'Bearer ${REDACTED}' name=bob`);
    expect(redactSecrets('http api.test X-API-Key:abc123secret')).toBe(`http api.test X-API-Key:${REDACTED}`);
  });

  it('keeps comparisons in code', () => {
    for (const text of ['if token==expected_token:', 'if (token === undefined) return', 'token == abc123', 'if token==None:']) {
      expect(redactSecrets(text)).toBe(text);
    }
  });
});

describe('redactSecrets: URL query parameters', () => {
  it('redacts only the value of a secret parameter; the parameters after it stay', () => {
    expect(redactSecrets('https://x.test/a?api_key=SECRET&user=me')).toBe(`https://x.test/a?api_key=${REDACTED}&user=me`);
    expect(redactSecrets("curl 'https://x.test/b?token=abc1&page=2#frag'")).toBe(`curl 'https://x.test/b?token=${REDACTED}&page=2#frag'`);
    expect(redactSecrets('https://x.test/c?q=lora&access_token=abc1&password=p2&x=1')).toBe(
      `https://x.test/c?q=lora&access_token=${REDACTED}&password=${REDACTED}&x=1`,
    );
  });

  it('still redacts a value holding & outside a query', () => {
    expect(redactSecrets('Password=Tr0ub4dor&3 is set')).toBe(`Password=${REDACTED} is set`);
  });
});
