// Keeps private text and credentials out of session notes (and out of the ingest state files).

export const REDACTED = '[REDACTED]';

/** Tags whose content is never written: the user's explicit opt-out and Claude Code's injected reminders. */
const HIDDEN_TAGS = ['private', 'system-reminder'];

/**
 * Removes `<private>…</private>` and `<system-reminder>…</system-reminder>` spans, nested ones included.
 * An opening tag that is never closed hides everything after it: when in doubt, write less.
 */
export function stripPrivate(text: string): string {
  let out = text;
  for (const tag of HIDDEN_TAGS) out = stripTag(out, tag);
  return out;
}

function stripTag(text: string, tag: string): string {
  // Opening tags may carry attributes; matching is case-insensitive like HTML.
  const token = new RegExp(`<(/?)${tag}(?:\\s[^>]*)?>`, 'gi');
  let out = '';
  let depth = 0;
  let keptFrom = 0;
  for (let m = token.exec(text); m; m = token.exec(text)) {
    const closing = m[1] === '/';
    if (!closing) {
      if (depth === 0) out += text.slice(keptFrom, m.index);
      depth++;
    } else if (depth > 0) {
      depth--;
      if (depth === 0) keptFrom = m.index + m[0].length;
    } else {
      // A stray closing tag: drop the tag, keep the text around it.
      out += text.slice(keptFrom, m.index);
      keptFrom = m.index + m[0].length;
    }
  }
  return depth > 0 ? out : out + text.slice(keptFrom);
}

interface SecretRule {
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

const hasDigit = (s: string) => /\d/.test(s);

const SECRET_RULES: SecretRule[] = [
  // PEM private keys, also when the block was cut before its END line.
  {
    pattern: /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY(?: BLOCK)?-----|$)/g,
    replace: () => REDACTED,
  },
  // Credentials inside URLs: scheme://user:password@host
  {
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi,
    replace: (_m, head: string, _pw: string, at: string) => `${head}${REDACTED}${at}`,
  },
  // HTTP Authorization headers, whatever the scheme.
  {
    pattern: /\b(Authorization["']?\s*[:=]\s*["']?(?:(?:Basic|Bearer|Token|Digest)\s+)?)([^\s"',;]{8,})/gi,
    replace: (_m, head: string) => `${head}${REDACTED}`,
  },
  // Bearer tokens elsewhere (curl -H, docs); a digit keeps prose like "Bearer authentication" intact.
  {
    pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/=-]{16,})/gi,
    replace: (m, head: string, token: string) => (hasDigit(token) ? `${head}${REDACTED}` : m),
  },
  // Secrets passed as command-line flags: --password hunter2, --token=… (the '=' form is an assignment).
  {
    pattern: /(--?(?:password|passwd|token|api[-_]?key|secret|client[-_]secret|auth[-_]token)[ \t]+)([^\s-][^\s]*)/gi,
    replace: (_m, head: string) => `${head}${REDACTED}`,
  },
  // Anthropic / OpenAI style keys (sk-…, sk-ant-…, sk-proj-…); a digit keeps hyphenated words out.
  {
    pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g,
    replace: (m) => (hasDigit(m) ? REDACTED : m),
  },
  // Stripe live/test keys.
  { pattern: /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g, replace: () => REDACTED },
  // AWS access key ids.
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: () => REDACTED },
  // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
  { pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, replace: () => REDACTED },
  { pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g, replace: () => REDACTED },
  // Slack tokens.
  { pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replace: () => REDACTED },
  // Google API keys.
  { pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, replace: () => REDACTED },
  // npm tokens.
  { pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, replace: () => REDACTED },
  // JSON Web Tokens (header.payload.signature, both first parts base64url JSON).
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: () => REDACTED },
];

// `password=…`, `API_KEY: "…"`, `"client_secret": "…"`: the key must END with the keyword, so
// `max_tokens=4096` and `token_type=bearer` stay readable.
const ASSIGNMENT =
  /((?<![A-Za-z0-9])[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?)(?![A-Za-z0-9]))(["']?[ \t]*)([:=])([ \t]*)("[^"\n]*"|'[^'\n]*'|(?:[^\s"'`,;&|)}\]]|&(?!&))+)/gi;

function redactAssignment(
  match: string,
  key: string,
  quoteAndSpace: string,
  op: string,
  space: string,
  value: string,
): string {
  const quoted = value.startsWith('"') || value.startsWith("'");
  const bare = quoted ? value.slice(1, -1) : value;
  if (bare === '' || bare.startsWith('[REDACTED')) return match;
  if (!quoted) {
    // References to a secret are not the secret: $TOKEN, ${TOKEN}, process.env.X, os.environ[…].
    if (/^(?:\$|process\.env|os\.environ|env\.|getenv)/i.test(bare)) return match;
    // `token: string` is a type annotation, not a credential: a bare identifier after ':' stays.
    if (op === ':' && /^[A-Za-z_][A-Za-z_.<>[\]|?]*$/.test(bare)) return match;
    // `token == null`, `password => …`: comparisons and arrows, not assignments.
    if (op === '=' && /^[=>]/.test(bare)) return match;
  }
  const redacted = quoted ? `${value[0]}${REDACTED}${value[0]}` : REDACTED;
  return `${key}${quoteAndSpace}${op}${space}${redacted}`;
}

/** Replaces common credential patterns (API keys, tokens, private keys, secret assignments) with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const rule of SECRET_RULES) {
    out = out.replace(rule.pattern, rule.replace as (substring: string, ...args: unknown[]) => string);
  }
  return out.replace(ASSIGNMENT, redactAssignment as (substring: string, ...args: unknown[]) => string);
}

/** Everything that goes from a transcript into a note passes through here. */
export function cleanText(text: string): string {
  return redactSecrets(stripPrivate(text));
}
