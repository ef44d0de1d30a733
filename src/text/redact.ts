// Replaces credentials with [REDACTED] in text tsm hands on without the user asking: session notes (and the
// ingest state files, sessions/redact.ts), the prompt hooks' injected context and the MCP tools' answers
// (docs/claude-code.md "Private text and secrets"). One rule set for all of them; in a note the user
// wrote only what looks made by a machine goes (redactNoteSecrets, below).
//
// Two kinds of rule, written for tsm (not copied) after the rule families of gitleaks' default config and
// Yelp's detect-secrets plugins:
// - well-known formats: private key blocks (PEM, PuTTY), credentials in URLs, Authorization / Cookie
//   headers, and vendor token prefixes (Anthropic/OpenAI, AWS, GitHub, GitLab, Slack incl. webhooks,
//   Stripe, Google, Hugging Face, npm/PyPI, Telegram bot, Discord webhooks, SendGrid, Twilio, DigitalOcean,
//   Shopify, HashiCorp Vault, Databricks, Grafana, Postman, age, Azure storage keys and SAS signatures, JWTs);
// - key-name heuristics (detect-secrets' KeywordDetector, gitleaks' generic-api-key): a value assigned to
//   a key whose name says "secret" — KEY=VALUE, key: value, "key": "value", --flag value, fish's
//   set -x KEY VALUE…, Dockerfile's ENV KEY VALUE — and passwords given on command lines (mysql -pPW, curl -u user:pw, sshpass -p PW,
//   echo PW | sudo -S, echo PW | docker login --password-stdin, htpasswd -b FILE USER PW), XML elements (<password>PW</password>) and key/value attribute pairs
//   (<add key="ApiKey" value="PW"/>, in either order).
// A false positive costs a word in a note; a false negative leaks a credential into a searchable file, so
// the rules lean to redacting. Prose stays readable: "password reset flow", "token budget", `max_tokens=`,
// `password: string` (a type) and `$TOKEN` (a reference) are left alone.

import { PATH_SEPARATOR } from '../core/types.js';
import { REDACTED } from './redacted.js';

export { REDACTED };

/** A word of an htpasswd command line: quoted, or up to a space or a shell operator. */
const HTPASSWD_WORD = String.raw`(?:"[^"\n]*"|'[^'\n]*'|[^\s"'${'`'}|;&<>-][^\s|;&${'`'}<>]*)`;

/**
 * What every match of a rule holds: one of `needs` as written, or one of `folded` (lower case) in the text
 * lower-cased (the rules that ignore case; their words are ASCII, which lower-casing keeps in place). A text
 * holding none of them cannot match, and the rule is neither run nor, on a first use, compiled: most text
 * holds no key block, no vendor prefix, no `sudo`, and a cold process paid ~1.8 ms compiling and running every
 * rule over a prompt hook's three sections, ~0.9 ms then (docs/claude-code.md, "What the hooks inject is
 * redacted too"). A trigger holds what every match must hold, as tight as the pattern allows (`-b ` for curl's
 * flag, not `-b`, which every `onboarding-buddies` holds). A note's text that looks made by no machine looks
 * for all the format rules' literals at once (FORMAT_LITERALS).
 * redact-triggers.test.ts checks every rule's literals against the samples of the redaction tests.
 */
export interface Trigger {
  needs?: readonly string[];
  folded?: readonly string[];
}

export interface SecretRule extends Trigger {
  /**
   * The rule's pattern, made when first asked for: a regex literal is made (parsed) when its arrow first runs,
   * and most rules never run in a process. Making all 62 when the module loaded cost a fresh `tsm hook` ~0.2 ms.
   */
  pattern: () => RegExp;
  replace: (match: string, ...groups: string[]) => string;
  /** A format that is a credential whatever surrounds it (a key block, a vendor's token prefix): redacted in a user's own notes too (redactNoteSecrets). */
  format?: true;
}

/** A pattern built from a string (SecretRule.pattern, the URL and key=value scans): made on first use, then the same one. */
function madeOnce(source: string, flags: string): () => RegExp {
  let made: RegExp | undefined;
  return () => (made ??= new RegExp(source, flags));
}

const hasDigit = (s: string) => /\d/.test(s);
/** Whether an XML attribute or element holding `value` under the key `name` holds a secret. */
const secretAttribute = (name: string, value: string) => isSecretKey(name) && !notASecret(value);
const whole = () => REDACTED;
/**
 * Keeps group 1 (what leads to the secret) and redacts the rest of the match (once: a second pass keeps it),
 * unless the rest is no secret: a reference or a placeholder (`Bearer $GITHUB_TOKEN`, `--password <pw>`), or
 * a shell operator that ends the command (`mysql -p;echo hi`: a bare -p prompts, `;echo` is no password).
 */
const afterHead = (m: string, head: string) => {
  const rest = m.slice(head.length);
  return rest.startsWith(REDACTED) || notASecret(rest) || SHELL_OPERATOR.test(rest) ? m : `${head}${REDACTED}`;
};

/** `scheme://x:y@` where y is no password: empty, a reference, already redacted, or a port and a path
 * (`http://localhost:5173/@vite/client`: the part before `:` is a host, not a user). */
function urlPasswordKept(head: string, pw: string): boolean {
  if (pw === '' || notASecret(pw) || pw.startsWith(REDACTED)) return true;
  const user = head.slice(head.indexOf('//') + 2, -1);
  return /^\d{1,5}(?:\/|$)/.test(pw) && (user.includes('.') || user === 'localhost');
}

// Credentials inside URLs: scheme://user:password@host. The password may hold `/` and `@`: it runs to the
// last `@` followed by a host name within PASSWORD_REACH characters of the same word. Found head by head,
// each looked at once over a bounded reach: the old single regex (`:(\S*)(@host)`) rescanned the rest of a
// space-less line for every `scheme://host:`, quadratic — a 2 MB pasted JSON line of `http://localhost:8080/…`
// URLs kept the Stop hook busy past Claude Code's 30 s kill (0.94 MB: 8.7 s; now a few ms).
// Bounds: a scheme of 32 characters, a user of 256, a password of 512, a host of 253 (DNS's own limit).
const URL_HEAD = /\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@]{0,256}:/gi;
const PASSWORD_REACH = 512;
// Made on first use (madeOnce), as are ASSIGNMENT and KEY_OP below: most hooks need none of them.
const URL_PASSWORD = madeOnce(`(\\S{0,${PASSWORD_REACH}})(@[A-Za-z0-9.-]{1,253}(?=[/:?#\\s"'\`)\\]]|$))`, 'y');

/** Whether a redaction of one match stands: `replaced`, or `original` where the scope keeps it (noteRedaction). */
type Judge = (original: string, replaced: string) => string;

function redactUrlCredentials(text: string, judge: Judge): string {
  if (!text.includes('://')) return text; // URL_HEAD's one literal (Trigger)
  const out: string[] = [];
  let from = 0;
  URL_HEAD.lastIndex = 0;
  for (let m = URL_HEAD.exec(text); m; m = URL_HEAD.exec(text)) {
    const head = m[0];
    const password = URL_PASSWORD();
    password.lastIndex = m.index + head.length;
    const p = password.exec(text);
    // No password (`http://localhost:8080/x`): go on right after the head, so a later URL of the same
    // line is still looked at.
    if (p === null || urlPasswordKept(head, p[1])) continue;
    if (judge(p[1], REDACTED) === p[1]) continue;
    out.push(text.slice(from, m.index), head, REDACTED, p[2]);
    from = password.lastIndex;
    URL_HEAD.lastIndex = from;
  }
  out.push(text.slice(from));
  return out.join('');
}

/** Config keys set to a user and a password, as two words (Poetry's and Composer's `http-basic.<repo>`). */
const CREDENTIAL_PAIR_KEYS = new Set(['http-basic']);
/** One value word of fish's `set`: quoted, or a bare word that is no operator, option, comment or `(…)`. */
const FISH_WORD = String.raw`(?:"[^"\n]*"|'[^'\n]*'|[^\s\x60'";|&()#<>-][^\s\x60;|&)]*)`;
/** Text that starts with a shell operator or a redirection: the command before it ends there. */
const SHELL_OPERATOR = /^[;&|<>()]/;
/** A shell word that starts with these is an operator, a redirection or a comment, not an argument. */
const SHELL_WORD_BREAK = /^[;&|<>()#]/;

export const SECRET_RULES: SecretRule[] = [
  // PEM private keys, also when the block was cut before its END line (gitleaks private-key).
  {
    needs: ['-----BEGIN '], pattern: () => /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY(?: BLOCK)?-----|$)/g,
    replace: whole,
    format: true,
  },
  // PuTTY private key files, header to MAC (or to the end when cut).
  { needs: ['PuTTY-User-Key-File-'], pattern: () => /PuTTY-User-Key-File-\d+:[\s\S]*?(?:Private-MAC:[ \t]*[0-9a-fA-F]+|$)/g, replace: whole, format: true },
  // Webhook URLs are credentials in themselves: Slack, Discord.
  { needs: ['https://hooks.slack.com/'], pattern: () => /\b(https:\/\/hooks\.slack\.com\/)(?:services|workflows|triggers)\/[A-Za-z0-9_/-]+/g, replace: afterHead, format: true },
  { needs: ['/api/webhooks/'], pattern: () => /\b(https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/)\d+\/[A-Za-z0-9_-]+/g, replace: afterHead, format: true },
  // Azure SAS signatures (sig=…) in URLs.
  { needs: ['sig='], pattern: () => /([?&]sig=)[A-Za-z0-9%+/=]{16,}/g, replace: afterHead, format: true },
  // HTTP Authorization headers, whatever the scheme.
  {
    // The value stops before a backtick (inline code: `Authorization: Bearer x`) and a sentence's last dot.
    folded: ['authorization'], pattern: () => /\b((?:Proxy-)?Authorization["']?\s*[:=]\s*["']?(?:(?:Basic|Bearer|Token|Digest|Negotiate)\s+)?)([^\s"'`,;]{7,}[^\s"'`,;.])/gi,
    replace: afterHead,
  },
  // Cookie headers: the whole header value (session ids are credentials).
  { folded: ['cookie'], pattern: () => /\b((?:Set-)?Cookie["']?[ \t]*:[ \t]*)(?![ \t]|\[REDACTED)([^\n"'`]+)/gi, replace: afterHead },
  // curl's cookie flag (a blank after -b: `-b` alone was in every `onboarding-buddies` and UUID).
  { needs: ['-b ', '-b\t', '--cookie'], pattern: () => /((?:^|\s)(?:-b|--cookie)[ \t]+["']?)([^\s"'=]+=[^\s"']+)/g, replace: afterHead },
  // Bearer tokens elsewhere (curl -H, docs); a digit keeps prose like "Bearer authentication" intact.
  {
    folded: ['bearer'], pattern: () => /\b(Bearer\s+)([A-Za-z0-9._~+/=-]{16,})/gi,
    replace: (m, head: string, token: string) => (hasDigit(token) ? `${head}${REDACTED}` : m),
  },
  // Passwords on command lines: mysql -pPW (attached: a bare -p prompts), curl -u user:pw, sshpass -p PW,
  // redis-cli -a PW, docker login -p PW, zip -P PW, 7z -pPW. A value already [REDACTED] is no match, so that the reach from the
  // command name goes on to a later password (`mysql -p[REDACTED]mysql -pPW` left PW as it was).
  { needs: ['mysql', 'mariadb', '7z', 'rar'], pattern: () => /(\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|mysqlimport|mysqlsh|7z|7za|7zr|7zz|rar|unrar)\b[^\n|;&]{0,200}?\s-p)(?!\[REDACTED)([^\s'"`-][^\s'"`]*|'[^'\n]*'|"[^"\n]*")/g, replace: afterHead },
  {
    needs: ['-u'], pattern: () => /((?:^|\s)(?:-u|--user|--proxy-user)[ \t]*=?[ \t]*["']?[^\s:"'`]+:)([^\s"'`]+)/g,
    replace: (m, head: string, pw: string) => (notASecret(pw) ? m : `${head}${REDACTED}`),
  },
  { needs: ['sshpass'], pattern: () => /(\bsshpass\b(?:[ \t]+-[a-oq-zA-Z]\S*)*[ \t]+-p[ \t]*)(?!\[REDACTED)([^\s`]+)/g, replace: afterHead },
  { needs: ['redis-cli'], pattern: () => /(\bredis-cli\b[^\n|;&]{0,200}?\s-a[ \t]+)(?!\[REDACTED)([^\s`]+)/g, replace: afterHead },
  { needs: ['-P'], pattern: () => /(\b(?:zip|unzip|zipcloak)\b[^\n|;&]{0,200}?\s-P[ \t]*)(?!\[REDACTED)("[^"\n]*"|'[^'\n]*'|[^\s`'"-][^\s`]*)/g, replace: afterHead },
  { needs: ['login'], pattern: () => /(\blogin\b[^\n|;&]{0,200}?\s-p[ \t]+)(?!\[REDACTED)([^\s`-][^\s`]*)/g, replace: afterHead },
  // Config setters take the key and its value as two words: `aws configure set aws_secret_access_key V`,
  // `npm config set //registry/:_authToken V`, `git config --global github.token V`, `poetry config
  // pypi-token.pypi V`, `dotnet user-secrets set "Api:Secret" V`. A key is secret when a part of its dotted,
  // colon or slash path is (`max_tokens`, `region` are not). Only after a setter (`config set`, `git config`…):
  // "the config token is …" is prose. A credential-pair key takes a user and a password (`poetry config
  // http-basic.myrepo alice PW`, composer's the same): the second word is the secret, the user stays; a
  // user alone (the tool then asks for the password) is no secret. The word after a one-value key is read
  // too (so that the pair's password can be), and written back as it was.
  {
    needs: ['config', 'user-secrets'], pattern: () => /(\b(?:(?:config|configure|user-secrets)[ \t]+set|(?:npm|pnpm|yarn|git|poetry|bundle|composer|pip|hg)[ \t]+config(?:[ \t]+set)?)(?:[ \t]+--?[A-Za-z][\w-]*)*[ \t]+(["']?)([^\s"'`=-][^\s"'`=]*)\2[ \t]+)(?!\[REDACTED)("[^"\n]*"|'[^'\n]*'|[^\s`'"-][^\s`]*)(?:([ \t]+)(?!\[REDACTED)("[^"\n]*"|'[^'\n]*'|[^\s`'"-][^\s`]*))?/g,
    replace: (m: string, head: string, _q: string, key: string, value: string, space?: string, second?: string) => {
      const parts = key.split(/[.:/]+/);
      const rest = second === undefined ? '' : `${space}${second}`;
      if (parts.some((p) => CREDENTIAL_PAIR_KEYS.has(p.toLowerCase()))) {
        // The command ends at a shell operator or comment: what follows is no password (`alice && poetry
        // install` redacted `&&`, `alice; echo hi` redacted `echo`).
        if (second === undefined || /[;&|]$/.test(value) || SHELL_WORD_BREAK.test(second)) return m;
        return head + value + afterHead(rest, space as string);
      }
      return parts.some(isSecretKey) ? afterHead(head + value, head) + rest : m;
    },
  },
  // fish's `set [options] NAME VALUE…` (no `=`): `set -gx AWS_SECRET_ACCESS_KEY V`. A lower-case name needs an
  // option (`we set token expiry` is prose); erasing, querying and listing (-e, -q, -S, -n) take no value.
  // `(cat file)` is fish's command substitution, a reference like `$(…)`. A fish variable is a list: every
  // word up to the end of the command (`;`, `|`, `&&`, a newline, a comment) is a value, and the values are
  // redacted as one unless each is no secret (`set -x API_TOKEN abc def` kept `def`).
  {
    needs: ['set'], pattern: madeOnce(String.raw`(\bset((?:[ \t]+--?[A-Za-z][\w-]*)*)[ \t]+([A-Za-z_]\w*)[ \t]+)(?!\[REDACTED|\()(${FISH_WORD}(?:[ \t]+${FISH_WORD})*)`, 'g'),
    replace: (m: string, head: string, options: string, name: string, values: string) => {
      if (options === '' && !/^[A-Z][A-Z0-9_]*$/.test(name)) return m;
      if (/(?:^|\s)(?:-[A-Za-z]*[eqSn]|--(?:erase|query|show|names)\b)/.test(options)) return m;
      if (!isSecretKey(name) || values.match(new RegExp(FISH_WORD, 'g'))!.every(notASecret)) return m;
      return afterHead(head + values, head);
    },
  },
  // Windows sets a variable with `setx NAME value` (`setx /M …`, cmd and PowerShell alike: OpenAI's quickstart
  // has `setx OPENAI_API_KEY "your-api-key-here"`) and .NET's `[Environment]::SetEnvironmentVariable("NAME",
  // "value", "User")`: no `=`, so neither was an assignment, and the value stayed when the name says secret.
  {
    folded: ['setx'], pattern: () => /(\bsetx(?:[ \t]+\/[A-Za-z]+)*[ \t]+(["']?)([A-Za-z_][\w.]*)\2[ \t]+)(?!\[REDACTED)("[^"\n]*"|'[^'\n]*'|[^\s`'"|;&<>/-][^\s`|;&<>]*)/gi,
    replace: (m: string, head: string, _q: string, name: string, value: string) => {
      const quote = /^["']/.test(value) ? value[0] : '';
      const bare = quote === '' ? value : value.slice(1, -1);
      if (!isSecretKey(name) || bare === '' || bare.startsWith(REDACTED) || notASecret(bare)) return m;
      return `${head}${quote}${REDACTED}${quote}`;
    },
  },
  {
    needs: ['SetEnvironmentVariable'], pattern: () => /(\bSetEnvironmentVariable[ \t]*\([ \t]*(["'])([A-Za-z_][\w.]*)\2[ \t]*,[ \t]*(["']))(?!\[REDACTED)([^"'\n]+)(?=\4)/g,
    replace: (m: string, head: string, _q: string, name: string, _q2: string, value: string) => (secretAttribute(name, value) ? head + REDACTED : m),
  },
  // A sudo password piped in, the way an agent runs sudo without a terminal: `echo PW | sudo -S cmd`,
  // `sudo -S cmd <<< PW`. Only with sudo's own -S (`echo y | sudo pacman -S vim` is pacman's).
  {
    needs: ['sudo'], pattern: () => /(\becho[ \t]+(?:-[neE]+[ \t]+)?)(?!\[REDACTED)("[^"\n]*"|'[^'\n]*'|[^\s|;&`'"]+)(?=[ \t]*\|[ \t]*sudo(?:[ \t]+-[A-Za-z]+)*?[ \t]+-[A-Za-z]*S(?![\w-]))/g,
    replace: afterHead,
  },
  {
    needs: ['<<<'], pattern: () => /(\bsudo(?:[ \t]+-[A-Za-z]+)*?[ \t]+-[A-Za-z]*S(?![\w-])[^\n|;&]{0,200}?<<<[ \t]*)(?!\[REDACTED)("[^"\n]*"|'[^'\n]*'|[^\s`]+)/g,
    replace: afterHead,
  },
  // A registry login's the same way: `echo PW | docker login --password-stdin` (podman, helm registry, oras),
  // `… --password-stdin <<< PW`. Each match starts at a literal word (`echo`, the flag), so the reach of
  // 200 characters keeps it linear (redact-linear.test.ts).
  {
    needs: ['--password-stdin'], pattern: () => /(\becho[ \t]+(?:-[neE]+[ \t]+)?)(?!\[REDACTED)("[^"\n]*"|'[^'\n]*'|[^\s|;&`'"]+)(?=[ \t]*\|[^\n|;&]{0,200}?[ \t]--password-stdin(?![\w-]))/g,
    replace: afterHead,
  },
  {
    needs: ['--password-stdin'], pattern: () => /(--password-stdin(?![\w-])[^\n|;&<]{0,200}?<<<[ \t]*)(?!\[REDACTED)("[^"\n]*"|'[^'\n]*'|[^\s`]+)/g,
    replace: afterHead,
  },
  // htpasswd -b takes the password on the command line: `htpasswd -b[cBm…] FILE USER PW`, `htpasswd -nb USER PW`
  // (-n: no file). Without -b it prompts (`htpasswd -c FILE USER`).
  {
    needs: ['htpasswd'], pattern: madeOnce(String.raw`(\bhtpasswd((?:[ \t]+-[A-Za-z0-9]+)*))((?:[ \t]+${HTPASSWD_WORD}){2,3})`, 'g'),
    replace: (m: string, head: string, flags: string, rest: string) => {
      const letters = flags.replace(/[\s-]/g, '');
      const words = [...rest.matchAll(new RegExp(String.raw`([ \t]+)(${HTPASSWD_WORD})`, 'g'))];
      const at = letters.includes('n') ? 1 : 2;
      const pw = words[at]?.[2];
      if (!letters.includes('b') || pw === undefined || pw.startsWith(REDACTED) || notASecret(pw)) return m;
      // "$ADMIN_PW" is a reference the shell expands ('$ADMIN_PW' is not: single quotes keep it literal).
      if (/^"[^"]*"$/.test(pw) && notASecret(pw.slice(1, -1))) return m;
      return head + words.map((w, i) => w[1] + (i === at ? REDACTED : w[2])).join('');
    },
  },
  // An XML element named as a secret: `<password>PW</password>` (Maven's settings.xml, Java and .NET configs).
  {
    needs: ['</'], pattern: () => /(<([A-Za-z_][\w.:-]{0,60})>)([^<>\n]{1,512})(?=<\/\2>)/g,
    replace: (m: string, open: string, name: string, value: string) => (secretAttribute(name, value) ? open + REDACTED : m),
  },
  // A key/value pair held in two attributes: .NET's `<add key="ApiKey" value="V"/>`, Spring's and Ant's
  // `<property name="password" value="V"/>`. The secret is the value attribute of an element whose key or
  // name attribute is a secret key. (A `password="V"` attribute is an assignment, below.)
  {
    // `value` then a blank or `=`: `values` is no attribute.
    folded: ['value=', 'value ', 'value\t'], pattern: () => /(<[A-Za-z][\w.:-]{0,60}[^<>]{0,200}?\s(?:key|name)[ \t]*=[ \t]*(["'])([^"'<>\n]{1,200})\2[^<>]{0,200}?\svalue[ \t]*=[ \t]*(["']))([^"'<>\n]{1,512})(?=\4)/gi,
    replace: (m: string, head: string, _q: string, name: string, _q2: string, value: string) => (secretAttribute(name, value) ? head + REDACTED : m),
  },
  // The same pair with the value attribute first: `<add value="V" key="ApiKey"/>` (attribute order is free).
  {
    folded: ['value=', 'value ', 'value\t'], pattern: () => /(<[A-Za-z][\w.:-]{0,60}[^<>]{0,200}?\svalue[ \t]*=[ \t]*(["']))([^"'<>\n]{1,512})(\2[^<>]{0,200}?\s(?:key|name)[ \t]*=[ \t]*(["'])([^"'<>\n]{1,200})\5)/gi,
    replace: (m: string, head: string, _q: string, value: string, tail: string, _q2: string, name: string) =>
      secretAttribute(name, value) ? head + REDACTED + tail : m,
  },
  // Java's Properties XML holds the value as the element's text: `<entry key="db.password">V</entry>`.
  {
    needs: ['<entry'], pattern: () => /(<entry[ \t]+key[ \t]*=[ \t]*(["'])([^"'<>\n]{1,200})\2[ \t]*>)([^<>\n]{1,512})(?=<\/entry>)/g,
    replace: (m: string, head: string, _q: string, name: string, value: string) => (secretAttribute(name, value) ? head + REDACTED : m),
  },
  // Dockerfile's old `ENV NAME value` (no `=`): the value is the rest of the line (`ENV NAME=value` is an
  // assignment, below). ENV in capitals, as Dockerfiles write it; a backtick ends it in inline code. Inside a
  // line the name must be ALL-CAPS too: "the ENV token is read at start" is prose.
  {
    needs: ['ENV'], pattern: () => /((?:^[ \t]*(?:[+-][ \t]*)?|([\s`]))ENV[ \t]+([A-Za-z_]\w*)[ \t]+)(?!\[REDACTED)([^\s`=][^\n`]*)/gm,
    replace: (m: string, head: string, inline: string | undefined, name: string, line: string) => {
      if (!isSecretKey(name) || (inline !== undefined && !/^[A-Z][A-Z0-9_]*$/.test(name))) return m;
      // Trailing blanks stay, trimmed here: a lazy value ending before them rescanned a long run of blanks
      // at every step (a 200 KB line took 15 s).
      const value = line.trimEnd();
      return afterHead(head + value, head) + line.slice(value.length);
    },
  },
  // `gh secret set NAME --body V`: the body is the secret, whatever the name.
  { needs: ['secret'], pattern: () => /(\bgh[ \t]+secret[ \t]+set\b[^\n|;&]{0,200}?[ \t](?:--body|-b)(?:[ \t]+|=))(?!\[REDACTED)("[^"\n]*"|'[^'\n]*'|[^\s`'"-][^\s`]*)/g, replace: afterHead },
  // openssl's pass phrase arguments (-pass, -passin, -passout): `pass:PW` is the password itself, `env:VAR`,
  // `file:path`, `fd:N` and `stdin` say where to read it (no secret). A quoted `'pass:two words'` runs to its quote.
  // `openssl enc -k PW` is the legacy form.
  { needs: ['openssl'], pattern: () => /(\bopenssl\b[^\n|;&]{0,200}?\s-k[ \t]+)(?!\[REDACTED)([^\s`-][^\s`]*)/g, replace: afterHead },
  {
    needs: ['pass:'], pattern: () => /(\s--?[a-z]*pass[a-z]*[ \t]+(["']?)pass:)(?!\[REDACTED)((?<=["']pass:)[^"'\n`]+(?=["'])|(?:[^\s`'"]|"[^"\n]*"|'[^'\n]*')+)/g,
    replace: afterHead,
  },
  // Secrets passed as command-line flags: --password hunter2, --token … (the '=' form is an assignment);
  // gpg's --passphrase, keytool's -storepass and -keypass. (openssl's `pass:PW` is the rule above.)
  {
    folded: ['pass', 'pwd', 'token', 'key', 'secret'], pattern: () => /(--?(?:password|passwd|passphrase|pass|pwd|token|api[-_]?key|secret|client[-_]secret|auth[-_]token|access[-_]token|(?:src|dest)?(?:store|key)pass)[ \t]+)(?!["']?(?:pass|env|file|fd):|stdin(?![^\s`]))([^\s`-][^\s`]*)/gi,
    replace: afterHead,
  },
  // A password told in prose: "my password is hunter2", "the staging db password is `Xy7#kq`", "the PIN was
  // 4821", "the password is: x", "is now x", "was set to x", and labelled "password for the wifi: x". The value
  // is a quoted or code span (always literal), or a bare word of 4 or more characters with a digit or a
  // symbol: a plain word after "is" is mostly prose ("the password is wrong", "is stored in 1Password",
  // "is set to expire") and stays, as does a placeholder (`<your password>`); `<private>` hides one written
  // as a plain word. Up to 40 characters may name whose it is ("password for the staging db is"), within the
  // sentence. A label needs its "for …": "Password reset: 2024-01-01" is no password.
  {
    // The words as the pattern writes them, case and all (`pin` was in every `ping`, `pass` in `passed`).
    needs: ['assword', 'assphrase', 'asswd', 'asscode', 'PASSWORD', 'PIN', 'in code', 'in number'], pattern: () => /(\b(?:[Pp]ass(?:word|phrase|wd|code)|PASSWORD|PIN|[Pp]in (?:code|number))s?\b(?:[^\n.!?;:,]{0,40}?[ \t](?:is|was)(?:[ \t]+(?:now|still|(?:set|changed|reset)[ \t]+to))?:?|[ \t]+for[ \t][^\n.!?;:,]{1,40}?:)[ \t]+)(?!\[REDACTED)("[^"\n]{1,200}"|'[^'\n]{1,200}'|`[^`\n]{1,200}`|[^\s"'`<][^\s"'`]{3,})/g,
    replace: (m: string, head: string, value: string) => proseSecret(head, value) ?? m,
  },
  // The same in Japanese: 「パスワードはhunter2です」, 「暗証番号は 4821。」, 「パスワードは「abcd1234」」, and as a
  // label, 「パスワード：hunter2」. Right after パスワードは/が/：: a bracketed, quoted or code value, or a run of
  // ASCII whatever follows it (です, 。, 、, で, なので, the line's end…) but the two ways Japanese prose names a tool
  // there: a word the run is the start of (「パスワードはObsidianアカウントとは別」, katakana or kanji right after
  // it) and where the password is kept (「パスワードは 1Password に保存」) — the handbook and Obsidian Help: 22
  // such lines, none a password. Only a clause's end counted before: 「パスワードはPWja65x、ユーザーはadmin」,
  // 「パスワード：PWja61x で接続して」 and 「…のパスワードは PWja66x なので」 kept their passwords.
  {
    needs: ['パスワード', 'パスフレーズ', '暗証番号'], pattern: () => /((?:パスワード|パスフレーズ|暗証番号)(?:は|が|[:：=＝])[ \t　]*)(?!\[REDACTED)(「[^」\n]{1,200}」|『[^』\n]{1,200}』|"[^"\n]{1,200}"|`[^`\n]{1,200}`|[!-~]{4,}(?![!-~])(?![ \t　]*に|[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff]))/g,
    replace: (m: string, head: string, value: string) => proseSecret(head, value, true) ?? m,
  },
  // A key named in words, as a label: `aws configure`'s prompt with the value typed after it (`AWS Secret Access
  // Key [None]: V`, the bracket the current value, masked), "Secret key: V", "API key: V", 「APIキー：V」. No key
  // rule saw these (the name holds spaces, or is Japanese), and a key of no vendor format stayed. The value is a
  // word of 16 or more characters (keys are long) holding a digit, bare, quoted or code: "API key: see the
  // dashboard", "Secret key: required", 「APIキーは管理画面で発行」 stay.
  {
    needs: ['キー', 'トークン'], folded: ['key', 'token'], pattern: () => /((?:\b(?:(?:AWS[ \t]+)?[Ss]ecret(?:[ \t]+[Aa]ccess)?[ \t]+[Kk]ey|API[ \t]+[Kk]ey|[Aa]pi[ \t]+key|[Aa]ccess[ \t]+[Tt]oken|[Aa]uth[ \t]+[Tt]oken)(?:[ \t]+\[[^\]\n]{0,64}\])?[ \t]*[:：]|(?:API[ \t]*キー|シークレットキー|アクセス(?:キー|トークン))(?:は|[:：]))[ \t　]*)(?!\[REDACTED)("[^"\n]{1,200}"|'[^'\n]{1,200}'|`[^`\n]{1,200}`|「[^」\n]{1,200}」|[^\s"'`<「][^\s"'`]{15,}(?=[\s"'`]|$)(?![ \t　]*に))/g,
    replace: (m: string, head: string, value: string) => labelledKey(head, value) ?? m,
  },
  // Anthropic / OpenAI style keys (sk-…, sk-ant-…, sk-proj-…); a digit keeps hyphenated words out.
  { needs: ['sk-'], pattern: () => /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g, replace: (m) => (hasDigit(m) ? REDACTED : m), format: true },
  // Stripe keys and webhook secrets.
  { needs: ['k_live_', 'k_test_', 'whsec_'], pattern: () => /\b(?:[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})\b/g, replace: whole, format: true },
  // AWS access key ids.
  { needs: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'], pattern: () => /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[0-9A-Z]{16}\b/g, replace: whole, format: true },
  // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
  { needs: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], pattern: () => /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, replace: whole, format: true },
  { needs: ['github_pat_'], pattern: () => /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g, replace: whole, format: true },
  // GitLab tokens: personal, pipeline trigger, deploy, runner, CI job, OAuth, feed… (glpat-, glptt-, gldt-, glrt-…).
  { needs: ['glpat-', 'glptt-', 'gldt-', 'glrt-', 'glcbt-', 'glimt-', 'glagent-', 'glsoat-', 'glffct-', 'gloas-', 'glft-', 'glwt-', 'glsa-'], pattern: () => /\bgl(?:pat|ptt|dt|rt|cbt|imt|agent|soat|ffct|oas|ft|wt|sa)-[A-Za-z0-9_-]{20,}/g, replace: whole, format: true },
  { needs: ['GR1348941'], pattern: () => /\bGR1348941[A-Za-z0-9_-]{20,}/g, replace: whole, format: true },
  // Slack tokens (bot, user, app-level xapp-, config, refresh).
  { needs: ['xox', 'xapp-'], pattern: () => /\bx(?:ox[a-z]|app)-[A-Za-z0-9-]{10,}/g, replace: whole, format: true },
  // Google API keys and OAuth secrets / access tokens.
  { needs: ['AIza'], pattern: () => /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, replace: whole, format: true },
  { needs: ['GOCSPX-', 'ya29.'], pattern: () => /\b(?:GOCSPX-[A-Za-z0-9_-]{20,}|ya29\.[A-Za-z0-9_-]{20,})/g, replace: whole, format: true },
  // Hugging Face user and organisation tokens.
  { needs: ['hf_', 'api_org_'], pattern: () => /\b(?:hf_|api_org_)[A-Za-z0-9]{30,}\b/g, replace: whole, format: true },
  // npm and PyPI tokens.
  { needs: ['npm_'], pattern: () => /\bnpm_[A-Za-z0-9]{36}\b/g, replace: whole, format: true },
  { needs: ['pypi-AgE'], pattern: () => /\bpypi-AgE[A-Za-z0-9_-]{50,}/g, replace: whole, format: true },
  // Telegram bot tokens: <bot id>:<35 characters starting with A>; also right after `bot` in the Bot API's URLs
  // (`https://api.telegram.org/bot<token>/sendMessage`, `/file/bot<token>/…`), where `\b` found no word start
  // and the token, in every curl of a bot, stayed.
  { needs: [':A'], pattern: () => /(?:\b|(?<=\/bot))\d{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/g, replace: whole, format: true },
  // SendGrid, Twilio, DigitalOcean, Shopify, HashiCorp Vault, Databricks, Grafana, Postman, age, Sentry,
  // Linear, Notion, Supabase, New Relic, Mailgun.
  { needs: ['SG.'], pattern: () => /\bSG\.[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}/g, replace: whole, format: true },
  { needs: ['SK', 'AC'], pattern: () => /\b(?:SK|AC)[0-9a-f]{32}\b/g, replace: whole, format: true },
  { needs: ['_v1_'], pattern: () => /\bdo[opr]_v1_[a-f0-9]{64}\b/g, replace: whole, format: true },
  { needs: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], pattern: () => /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g, replace: whole, format: true },
  { needs: ['hvs.', 'hvb.', 'hvr.'], pattern: () => /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/g, replace: whole, format: true },
  { needs: ['dapi'], pattern: () => /\bdapi[a-f0-9]{32}(?:-\d)?\b/g, replace: whole, format: true },
  { needs: ['glsa_', 'glc_'], pattern: () => /\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})/g, replace: whole, format: true },
  { folded: ['pmak-'], pattern: () => /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/gi, replace: whole, format: true },
  { needs: ['AGE-SECRET-KEY-1'], pattern: () => /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g, replace: whole, format: true },
  { needs: ['sntrys_', 'sntryu_', 'lin_api_', 'ntn_', 'sbp_', 'NRAK-'], pattern: () => /\b(?:sntry[su]_[A-Za-z0-9+/=_-]{20,}|lin_api_[A-Za-z0-9]{40}|ntn_[A-Za-z0-9]{40,}|sbp_[a-f0-9]{40}|NRAK-[A-Z0-9]{27})\b/g, replace: whole, format: true },
  { needs: ['key-'], pattern: () => /\bkey-[0-9a-f]{32}\b/g, replace: whole, format: true },
  // JSON Web Tokens (header.payload.signature, both first parts base64url JSON).
  { needs: ['eyJ'], pattern: () => /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: whole, format: true },
];

// --- Key-name heuristics -------------------------------------------------------------------------------

/** Words that make a key name secret when nothing but qualifiers follows them (`DB_PASS`, `SECRET_KEY`). */
const SECRET_WORDS = new Set([
  'password', 'passwd', 'passphrase', 'passcode', 'pass', 'pwd', 'pw', 'secret', 'token', 'apikey', 'credential', 'credentials',
  'creds', 'cred', 'privatekey', 'accesskey', 'authkey', 'auth', 'cookie', 'pat', 'sessionid', 'sessiontoken',
  'connectionstring', 'sas', 'signature',
  // The variable `sshpass -e` reads the password from.
  'sshpass',
]);
/** `<word>_KEY` is a secret for these words (`API_KEY`, `ACCOUNT_KEY`, `SIGNING_KEY`), not for `sort_key`. */
const KEY_OWNERS = new Set([
  'api', 'access', 'secret', 'private', 'signing', 'encryption', 'master', 'client', 'account', 'storage', 'app',
  'auth', 'license', 'service', 'shared', 'hmac', 'jwt', 'session', 'consumer', 'subscription', 'admin', 'root',
  'crypto', 'cipher', 'aes', 'ssh', 'gpg', 'pgp', 'webhook', 'sharedaccess', 'primary', 'secondary', 'instrumentation',
  // Supabase's SUPABASE_SERVICE_ROLE_KEY and SUPABASE_ANON_KEY.
  'role', 'anon',
]);
/** Words that may follow a secret word without changing what the key holds. */
const QUALIFIERS = new Set([
  'key', 'value', 'val', 'str', 'string', 'raw', 'plain', 'plaintext', 'text', 'b64', 'base64', 'enc', 'encrypted',
  'hex', 'prod', 'production', 'dev', 'staging', 'stage', 'test', 'live', 'old', 'new', 'current', 'main', 'default',
  'confirm', 'confirmation', 'again', 'repeat', 'secret', 'token', 'pass', 'word', 'id', 'v1', 'v2',
  // Rails' SECRET_KEY_BASE; a password's hash or digest is a credential too (it can be cracked offline).
  'base', 'hash', 'hashed', 'digest',
]);

/** Long keywords that also count at the end of a run-together word: PGPASSWORD, MYSQLPASSWD, APPSECRET. */
const SECRET_SUFFIX = /(?:password|passwd|passphrase|passcode|secret|token|apikey)$/;

/** A key's words, lower case: `SLACK_AUTH_TOKEN` → slack auth token, `clientSecret` → client secret. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && !/^\d+$/.test(w));
}

/** Whether a key name says its value is a credential. `max_tokens`, `token_type`, `DB_PASSWORD_FILE`: no. */
export function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const secretHere = SECRET_WORDS.has(w) || SECRET_SUFFIX.test(w) || (w === 'key' && i > 0 && KEY_OWNERS.has(words[i - 1]));
    if (!secretHere) continue;
    // `id` only qualifies after a word that is already a credential on its own (`SESSION_TOKEN_ID` is not
    // one, `secret_id` neither): what follows must be qualifiers other than `id`.
    if (words.slice(i + 1).every((q) => QUALIFIERS.has(q) && q !== 'id')) return true;
  }
  return false;
}

/** Brackets and quotes around a value told in prose, kept around its [REDACTED]. */
const PROSE_QUOTES: Record<string, string> = { '"': '"', "'": "'", '`': '`', '「': '」', '『': '』' };

/**
 * A prose password's replacement, or null to keep it: a quoted value loses its content and keeps its
 * quotes; a bare one loses itself but not the sentence's punctuation after it (`hunter2.`), and is kept
 * when it is no secret (a reference, a placeholder) or, outside Japanese, holds letters only.
 */
function proseSecret(head: string, value: string, anyWord = false): string | null {
  const close = PROSE_QUOTES[value[0]];
  if (close !== undefined && value.length > 2 && value.endsWith(close)) {
    return notASecret(value.slice(1, -1)) ? null : `${head}${value[0]}${REDACTED}${close}`;
  }
  const word = value.replace(/[.,;:!?)\]]+$/, '');
  if (word.length < 4 || notASecret(word)) return null;
  if (!anyWord && !/[^\p{L}]/u.test(word)) return null;
  return `${head}${REDACTED}${value.slice(word.length)}`;
}

/**
 * A key given after a label (the rule above): its replacement, or null to keep it. The quotes or brackets stay
 * around [REDACTED], and a sentence's punctuation after a bare value; the value must be one word of 16 or more
 * characters with a digit (a bare one ends at Japanese text: 「APIキーは abc123… です」).
 */
function labelledKey(head: string, value: string): string | null {
  const close = PROSE_QUOTES[value[0]];
  const quoted = close !== undefined && value.length > 2 && value.endsWith(close);
  const word = quoted ? value.slice(1, -1) : (/^[!-~]*/.exec(value) as RegExpExecArray)[0].replace(/[.,;:!?)\]]+$/, '');
  if (word.length < 16 || /\s/.test(word) || !hasDigit(word) || notASecret(word)) return null;
  // An environment variable's name says where the key is (`API key: ANTHROPIC_API_KEY_2`), as 「…に」 does.
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(word) || (!quoted && /^[ \t　]*に/.test(value.slice(word.length)))) return null;
  return quoted ? `${head}${value[0]}${REDACTED}${close}` : `${head}${REDACTED}${value.slice(word.length)}`;
}

/** Values that say "no secret here": references, placeholders, empty and literal values. */
// (`$NAME`, `${…}`, `$(…)` are references; a crypt-format hash, `$<id>$…` — bcrypt `$2b$12$…`, argon2
// `$argon2id$v=19$…`, yescrypt `$y$…`, Apache `$apr1$…` — is not.)
const NOT_A_SECRET = /^(?:\$(?![A-Za-z0-9-]+\$)[A-Za-z_{(]|%[A-Za-z_]|process\.env|os\.environ|os\.getenv|env\.|getenv|ENV\[|<[^>]*>$|\*+$|x{3,}$|\.{3}$|…$|true$|false$|null$|nil$|none$|undefined$|yes$|no$|on$|off$|~$|\[REDACTED)/i;

/**
 * Whether a value is no secret (NOT_A_SECRET), for every rule: the assignments and the headers, flags and
 * command lines (afterHead). In one piece only: `Cookie: $C; sid=abc123` still holds a secret.
 */
function notASecret(value: string): boolean {
  const v = value.trim();
  return v !== '' && !/[\s;&|]/.test(v) && NOT_A_SECRET.test(v);
}

/**
 * A placeholder that may hold spaces, where a value starts: `password=<your password>`. It must be the whole
 * value: what follows it ends a value (VALUE_REST matches nothing there). `password=<b>hunter2</b>` and
 * `password=<REDACTED>actualpw123` are secrets behind a tag.
 */
const PLACEHOLDER = /<[A-Za-z_][^<>\n]{0,60}>/y;
/** The rest of an unquoted value, as ASSIGNMENT reads one. */
const VALUE_REST = /(?:[^\s"'`,;&|)}\]]|&(?!&))*/y;
/** A crypt-format hash (`$argon2id$v=19$m=65536,t=3,p=4$salt$hash`): its commas are part of it. */
const CRYPT_HASH = /\$[A-Za-z0-9-]+\$(?:[^\s"'`,;&|)}\]]|,(?=[^\s"'`,;&|)}\]]))*/y;
/** Type names: `password: string`, `token: Option<String>`, `secret: SecretStr` are declarations. */
const TYPE_NAMES = /^(?:string|str|number|int|integer|float|double|bool|boolean|bytes|any|unknown|object|char|text|varchar|u?int\d*|i\d+|usize|void)\b/i;
const TYPE_LIKE = /^[A-Za-z_][\w.]*(?:<.*>|\[\])?[?!]?$/;

// key, separator, value. The key is an identifier-ish run (dots and dashes for YAML paths and --flags);
// the value a quoted string or a run up to whitespace or punctuation that ends a value in code. `==` is
// HTTPie's query-parameter item (`http GET host token==V`); `===` and a `==` with a space after it are
// comparisons, read as `=` and a value starting with `=` (kept). `=>` sets a Ruby or PHP hash's key
// (`'password' => 'x'`; only a quoted value counts there: `token => token.trim()` is an arrow function).
// Quotes may be escaped, JSON inside a JSON or shell string (`curl -d "{\"password\":\"x\"}"`, a transcript's
// tool input quoted once more): ESCAPED_QUOTED is such a value, its quotes any run of backslashes and `"`.
// Inside it a run of backslashes is taken whole or not at all (`\\+(?=[^"\\])`): with `\\+(?!")` the run could
// be split any number of ways, and `password=\"` then 28 backslashes took 1.4 s (2^n).
const ESCAPED_QUOTED = String.raw`\\+"(?:[^"\\\n]|\\+(?=[^"\\]))*\\+"`;
const KEY_QUOTE = String.raw`(\\*["']|)`;
// A full-width colon or equals sign (`：` `＝`, what a Japanese input method types) separates as `:` and `=` do:
// `DB_PASSWORD：hunter2` kept its password.
const OPERATOR = String.raw`(:=|=>|==(?=[^\s=])|=|:|：|＝)`;
const ASSIGNMENT_HEAD = String.raw`(?<![A-Za-z0-9_.$-])((?:--?)?[A-Za-z_][A-Za-z0-9_.-]*)${KEY_QUOTE}([ \t]*)${OPERATOR}([ \t]*)`;
const ASSIGNMENT = madeOnce(
  String.raw`${ASSIGNMENT_HEAD}("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|${ESCAPED_QUOTED}|(?:[^\s"'\x60,;&|)}\]]|&(?!&))+)`,
  'y',
);
// After a full-width separator the text around is Japanese: the value is a bracketed one or a run of ASCII
// (`DB_PASSWORD：hunter2です` keeps です, `api_key：「abc123」` its brackets). Read so, not by ASSIGNMENT cut
// short afterwards: ASSIGNMENT read every key's value to the end of a space-less run, and 360 KB of
// `password：password：…` took 53 s.
const FULL_WIDTH_ASSIGNMENT = madeOnce(
  String.raw`${ASSIGNMENT_HEAD}("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|「[^」\n]*」|『[^』\n]*』|${ESCAPED_QUOTED}|(?:[^\s"'\x60,;&|)}\]\u0080-\uffff]|&(?!&))+)`,
  'y',
);
// ASSIGNMENT's key and separator alone: every key is found by this, and only a secret one has its value read
// (ASSIGNMENT, at the same place). Reading every key's value, then going back to right after the key (a value
// may itself be `key=value`), was quadratic in a space-less run of `a:b:c:…` (a MAC-address dump of 120 KB
// took 7.3 s); the scan is now linear, short of a long run of secret keys (`password:password:…`).
const KEY_OP = madeOnce(String.raw`(?<![A-Za-z0-9_.$-])((?:--?)?[A-Za-z_][A-Za-z0-9_.-]*)${KEY_QUOTE}([ \t]*)${OPERATOR}`, 'g');

/** A full-width separator read as the ASCII one it stands for (OPERATOR). */
const FULL_WIDTH_OPERATOR: Record<string, string> = { '：': ':', '＝': '=' };

/** Whether the key at `at` is a URL query parameter or a form field: `=` after `?` or `&`. */
const isQueryParam = (text: string, at: number, op: string) => op === '=' && (text[at - 1] === '?' || text[at - 1] === '&');

/**
 * Names that say "credential" only as a query parameter (`?key=V` is Google's API key, `&sig=V` an Azure
 * SAS signature too short for the SAS rule); elsewhere `key=`, `sig=` are ordinary (`sort(key=len)`).
 */
const QUERY_SECRET_PARAMS = new Set(['key', 'sig']);

/** Whether the value of `key` is a secret: a secret key anywhere, or a credential's name in a query. */
function isSecretParam(key: string, inQuery: boolean): boolean {
  return isSecretKey(key) || (inQuery && QUERY_SECRET_PARAMS.has(key.toLowerCase()));
}

/** The replacement for one `key op value` match, and where the text it replaces ends. */
function redactAssignment(m: RegExpExecArray, text: string): { text: string; end: number } {
  const [, key, keyQuote, space1, typed, space2] = m;
  const op = FULL_WIDTH_OPERATOR[typed] ?? typed;
  const valueStart = m.index + m[0].length - m[6].length;
  const inQuery = isQueryParam(text, m.index, op);
  const value = valueEnding(m[6], op, inQuery);
  const end = valueStart + value.length;
  const keep = { text: text.slice(m.index, end), end };
  if (!isSecretParam(key, inQuery)) return keep;
  // `token ==abc`: a comparison, spaced unevenly (an HTTPie item is one shell word).
  if (op === '==' && space1 !== '') return keep;
  const quote = quotesOf(value);
  const quoted = quote !== null;
  const bare = quote === null ? value : value.slice(quote.open.length, value.length - quote.close.length);
  if (op === '=>' && !quoted) return keep;
  if (bare.trim() === '' || NOT_A_SECRET.test(bare.trim())) return keep;
  // Where an unquoted value really ends, when it runs past what ASSIGNMENT read (a placeholder with spaces
  // followed by more, a crypt hash with commas).
  let valueEnd = end;
  if (!quoted) {
    PLACEHOLDER.lastIndex = end - value.length;
    if (PLACEHOLDER.test(text)) {
      VALUE_REST.lastIndex = PLACEHOLDER.lastIndex;
      VALUE_REST.exec(text);
      if (VALUE_REST.lastIndex === PLACEHOLDER.lastIndex) return keep; // the placeholder is the whole value
      valueEnd = Math.max(end, VALUE_REST.lastIndex);
    }
    CRYPT_HASH.lastIndex = end - value.length;
    if (CRYPT_HASH.test(text)) valueEnd = Math.max(valueEnd, CRYPT_HASH.lastIndex);
  }
  // `password == x`, `token => …` are comparisons and arrows; `//` starts a comment or a path, `{`/`(` an
  // object or a call.
  if (!quoted && /^(?:[=>]|\/\/|[({[])/.test(bare)) return keep;

  const before = lineBefore(text, m.index);
  // Where the value is the secret whatever it looks like: a YAML `key: value` line, a .env/`export` line,
  // or an ALL-CAPS environment name anywhere (`MYSQL_PWD=x mysql …`).
  const envName = /^-*[A-Z][A-Z0-9_]*$/.test(key);
  // (A diff's `+`/`-` in front of the line does not change that.)
  // (A full-width colon is no YAML: its value does not run to the line's end.)
  const yamlLine = typed === ':' && /^[ \t]*(?:[+-][ \t]*)?(?:-[ \t]+)?["']?$/.test(before);
  const envLine = op !== ':' && (envName || /^[ \t]*(?:export|set|setenv|ENV|declare(?:[ \t]+-x)?)[ \t]+["']?$/.test(before));
  if (!quoted) {
    // A type is not a value: `password: string`, `token: Option<String>`, `secret: SecretStr`.
    if (op === ':' && (TYPE_NAMES.test(bare) || (TYPE_LIKE.test(bare) && /^[A-Z][a-z]+[A-Z]|[<[?]/.test(bare)))) return keep;
    // In code, a bare word after the key is a variable, a call or a type: `password = form.password`,
    // `token = getToken()`. A secret there has a digit or a symbol, or is quoted.
    const word = /^[A-Za-z_][\w.]*\(?$/.test(bare) && !hasDigit(bare);
    // (A query parameter's value is text, never code.)
    if (!yamlLine && !envLine && !envName && !inQuery && (word || /^[A-Za-z_][\w.]*\(/.test(bare))) return keep;
  }
  const redacted = quote === null ? REDACTED : `${quote.open}${REDACTED}${quote.close}`;
  const head = `${key}${keyQuote}${space1}${typed}${space2}`;
  if (quoted || !yamlLine) return { text: head + redacted, end: valueEnd };
  // YAML `password: correct horse battery` : the rest of the line is the value (a trailing comment stays).
  // A sentence after a label is prose, not a value: "Token: a unit of text the model reads."
  const lineEnd = text.indexOf('\n', end);
  const line = text.slice(m.index + head.length, lineEnd === -1 ? text.length : lineEnd);
  const valueText = line.replace(/[ \t]+#.*$/, '');
  if (/\s/.test(valueText.trim()) && /[.!?]$/.test(valueText.trim())) return keep;
  return { text: head + redacted, end: m.index + head.length + valueText.length };
}

/**
 * What stands on the key's line before it, for the line tests above (indentation, a diff's `+`, `- `, `export`).
 * Looked for within LINE_REACH characters: a line start further back means more than those tests can match, so
 * a marker (`…`) stands for it. Searching back to the line's start for every key was quadratic on a long line
 * of secret keys (40,000 `pass: -X` pairs: 2.2 s).
 */
function lineBefore(text: string, at: number): string {
  const from = Math.max(0, at - LINE_REACH);
  const window = text.slice(from, at);
  const nl = window.lastIndexOf('\n');
  if (nl !== -1) return window.slice(nl + 1);
  return from === 0 ? window : `…${window}`;
}
const LINE_REACH = 256;

/** The quotes around a value ASSIGNMENT read: `"`, `'`, or escaped ones (`\"`, `\\\"`), or null when unquoted. */
function quotesOf(value: string): { open: string; close: string } | null {
  if (value.startsWith('"') || value.startsWith("'")) return { open: value[0], close: value[0] };
  if (/^(?:「[^」\n]*」|『[^』\n]*』)$/.test(value)) return { open: value[0], close: value.at(-1) as string };
  const open = /^\\+"/.exec(value);
  if (open === null || value.length < open[0].length + 2) return null;
  return { open: open[0], close: /\\+"$/.exec(value)![0] };
}

/**
 * Where an unquoted value read by ASSIGNMENT ends, given its operator. A URL's query parameter or a form
 * field (`inQuery`: `?api_key=V&user=me`, the key follows `?` or `&`) ends at `&` or
 * `#`, which a value there cannot hold unescaped (`%26`): `&user=me` is the next parameter, not part of the
 * secret. Elsewhere `&` stays in the value (`Password=Tr0ub4dor&3`). An HTTPie item's value (`==`) does not
 * end in `:` (`if token==None:` is Python).
 */
function valueEnding(value: string, op: string, inQuery: boolean): string {
  if (quotesOf(value) !== null) return value;
  if (inQuery) {
    const cut = value.search(/[&#]/);
    return cut === -1 ? value : value.slice(0, cut);
  }
  return op === '==' ? value.replace(/:$/, '') : value;
}

/** Every key isSecretParam takes holds one of these words (keyWords lower-cases a key and cuts it into words). */
export const SECRET_KEY_TRIGGER: Trigger = { folded: [...SECRET_WORDS, 'key', ...QUERY_SECRET_PARAMS] };

function redactAssignments(text: string, judge: Judge): string {
  if (!mayMatch(SECRET_KEY_TRIGGER, text)) return text;
  const out: string[] = [];
  let from = 0;
  const keyOp = KEY_OP();
  keyOp.lastIndex = 0;
  for (let k = keyOp.exec(text); k; k = keyOp.exec(text)) {
    // Nothing redacted: go on right after the key and its operator (KEY_OP's lastIndex), so a value that is
    // itself `key=value` (`Endpoint=…;AccountKey=…`) is still looked at.
    if (!isSecretParam(k[1], isQueryParam(text, k.index, k[4]))) continue;
    const assignment = (FULL_WIDTH_OPERATOR[k[4]] === undefined ? ASSIGNMENT : FULL_WIDTH_ASSIGNMENT)();
    assignment.lastIndex = k.index;
    const m = assignment.exec(text);
    if (m === null) continue;
    const r = redactAssignment(m, text);
    if (r.text === text.slice(m.index, r.end) || judge(text.slice(m.index, r.end), r.text) !== r.text) continue;
    out.push(text.slice(from, m.index), r.text);
    from = r.end;
    keyOp.lastIndex = r.end;
  }
  out.push(text.slice(from));
  return out.join('');
}

// URL-encoded key/value pairs, in a logged URL or a form body: `password%3Dhunter2` (`password=hunter2`),
// `%22api_key%22%3A%22V%22` (`"api_key":"V"`). As for ASSIGNMENT, every key is found and only a secret one has
// its value read, so a value holding an encoded query (`next%3D%2Fcb%3Fpassword%3DV`) is still looked into.
// The value ends where a decoded one would (`%26` &, `%23` #, `%22` a quote) and is judged decoded
// (`%24DB_PASSWORD` is the reference `$DB_PASSWORD`, `%3Cyour%20password%3E` a placeholder).
const ENCODED_KEY_OP = /(?<=^|[^A-Za-z0-9_.-]|%[0-9A-F]{2})([A-Za-z_][\w.-]{0,100})(%3D|%22(?:%20|\+)*%3A)(?:%20|\+)*(?:%22)?/gi;
const ENCODED_VALUE = /(?!\[REDACTED)(?:[^\s%&#"'`<>)\]},;]|%(?!2[236])[0-9A-F]{2})+/iy;

function redactEncoded(text: string, judge: Judge): string {
  // Most text holds no encoded `=` or `:`; the key scan costs a third of the key=value scan where it runs.
  if (!/%3[AD]/i.test(text)) return text;
  const out: string[] = [];
  let from = 0;
  ENCODED_KEY_OP.lastIndex = 0;
  for (let k = ENCODED_KEY_OP.exec(text); k; k = ENCODED_KEY_OP.exec(text)) {
    const inQuery = k[2].length === 3 && /(?:[?&]|%3F|%26)$/i.test(text.slice(Math.max(0, k.index - 3), k.index));
    if (!isSecretParam(k[1], inQuery)) continue;
    ENCODED_VALUE.lastIndex = k.index + k[0].length;
    const v = ENCODED_VALUE.exec(text);
    if (v === null || notASecret(decodeOrKeep(v[0])) || isPlaceholder(decodeOrKeep(v[0]))) continue;
    if (judge(v[0], REDACTED) === v[0]) continue;
    out.push(text.slice(from, v.index), REDACTED);
    from = ENCODED_VALUE.lastIndex;
    ENCODED_KEY_OP.lastIndex = from;
  }
  out.push(text.slice(from));
  return out.join('');
}

/** A placeholder, spaces and all, that is a whole value (`<your password>`): PLACEHOLDER read to its end. */
function isPlaceholder(value: string): boolean {
  PLACEHOLDER.lastIndex = 0;
  return PLACEHOLDER.test(value) && PLACEHOLDER.lastIndex === value.length;
}

/** A URL-encoded value decoded (`+` is a space in a form), or as it is when it is no valid encoding. */
function decodeOrKeep(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

// Kubernetes / compose style: `- name: DB_PASSWORD` with its `value: …` on the next line.
const NAME_VALUE = /^([ \t]*-?[ \t]*name:[ \t]*["']?([A-Za-z0-9_.-]+)["']?[ \t]*\n[ \t]*value:[ \t]*)(?!\[REDACTED)(["']?)([^\n]*?)\3[ \t]*$/gm;

function redactNameValue(text: string, judge: Judge): string {
  if (!text.includes('value:')) return text; // NAME_VALUE's (Trigger)
  return text.replace(NAME_VALUE, (m, head: string, name: string, quote: string, value: string) =>
    isSecretKey(name) && value.trim() !== '' && !NOT_A_SECRET.test(value.trim()) ? judge(m, `${head}${quote}${REDACTED}${quote}`) : m,
  );
}

/**
 * Replaces credentials (key formats, secret-named assignments, command-line passwords) with `[REDACTED]`.
 * One rule's match can hide the next: `docker login -p mysql -psshpass -p PW` — the mysql rule takes
 * `sshpass` as a password, and `sshpass -p PW` is no longer there to be seen. So the rules run again until
 * nothing changes (a second pass is the usual last), and a note's text is what a second ingest would make of
 * it. Found by the property test in redact-classes.test.ts.
 */
export function redactSecrets(text: string): string {
  return redactPasses(text, false, false);
}

// A note the user wrote (what the prompt hooks inject and the MCP tools answer) is redacted more narrowly
// than a transcript. A transcript's text was never meant to be kept, so its rules lean to redacting; a note
// is text the user chose to write, and its code and prose reach the model as the answer to a question. On
// the handbook, the TIL notes, the Obsidian Hub, Obsidian Help and tldr (13,689 notes) the session rules
// changed 122 notes, nearly all of them documentation: placeholders (`'YOUR_GITLAB_TOKEN'`, `abc123`), code
// (`new_user.password = params[:password]` → `[REDACTED]]`, `pass: state.matches(value)`), a setter's
// argument (`git config credential.helper 'cache --timeout=300'`) and prose (「パスワードは Jeff Beaumont の
// 1Password」 lost the name). So in a note only what looks made by a machine goes: every format rule (a key
// block, a vendor's token prefix, a webhook URL, a JWT) as in a transcript, and a value the key-name rules
// find only when it holds a word of 16 or more characters mixing letters and digits
// (`aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, `Bearer gErypPlm4dOVgGRvA1ZzMH5MQ3nLo8bo`).
// A short password written by hand (`DB_PASSWORD=hunter2`) stays as the user wrote it.

/** redactSecrets for text of a note the user wrote (above). */
export function redactNoteSecrets(text: string): string {
  return redactPasses(text, false, true);
}

/**
 * A heading path (`title > Heading > Subheading`) redacted heading by heading, so that no redaction reaches
 * across a ` > ` (a Cookie header's value runs to the line's end) and the path keeps its headings.
 */
export function redactNoteHeadingPath(path: string): string {
  return path.split(PATH_SEPARATOR).map(redactNoteSecrets).join(PATH_SEPARATOR);
}

/**
 * A note's vault path as the model is shown it, by the prompt hooks and by the MCP tools (whose answers have
 * every string redacted, paths included: mcp/redact-answer.ts): one rule, so that the two show a note alike.
 * A file name holding a token (`ghp_….md`, `DB_PASSWORD=….md`) was injected by the hooks as it is while MCP
 * sent `[REDACTED]`. Redacted, such a path names no file the model can open by it (MCP's get_sections still
 * reads the note by id, and its text is in the result); kept, the credential goes to the model's API unasked,
 * which is what redaction is for. A path of no machine-made word is kept byte for byte.
 */
export function redactNotePath(path: string): string {
  return redactNoteSecrets(path);
}

/**
 * redactNoteSecrets, except that a secret over several lines (a key block) leaves its line breaks after its
 * `[REDACTED]`, so that every line after it keeps its number (read_note shows a note's lines numbered).
 */
export function redactNoteSecretsKeepingLines(text: string): string {
  return redactPasses(text, true, true);
}

/**
 * A word of a value that looks made by a machine: 16 or more key characters, letters and digits both. Found
 * by one test, at a word's start (no key character before it), where the lookaheads stay inside the word.
 */
const MACHINE_WORD = /(?<![A-Za-z0-9+/=_.~-])(?=[A-Za-z0-9+/=_.~-]{16})(?=[A-Za-z0-9+/=_.~-]*?\d)(?=[A-Za-z0-9+/=_.~-]*?[A-Za-z])/;
const looksMachineMade = (value: string) => MACHINE_WORD.test(value);

/**
 * For a user's note: `replaced` (one match of a key-name rule, redacted) unless what it hides does not look
 * made by a machine, then `original`. What it hides is what lies between the two's common start and end.
 */
function noteRedaction(original: string, replaced: string): string {
  if (replaced === original) return original;
  let pre = 0;
  while (pre < original.length && pre < replaced.length && original[pre] === replaced[pre]) pre++;
  let suf = 0;
  while (suf < original.length - pre && suf < replaced.length - pre && original[original.length - 1 - suf] === replaced[replaced.length - 1 - suf]) suf++;
  return looksMachineMade(original.slice(pre, original.length - suf)) ? replaced : original;
}

function redactPasses(text: string, keepLines: boolean, userNote: boolean): string {
  let out = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = redactOnce(out, keepLines, userNote);
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Whether `text` holds one of the trigger's literals (Trigger): only then can the rule it guards match. */
export function mayMatch(trigger: Trigger, text: string, folded: () => string = () => text.toLowerCase()): boolean {
  const { needs, folded: words } = trigger;
  if (needs === undefined && words === undefined) return true;
  // Plain loops: a fresh hook process runs this cold (interpreted), where `some` and a closure per literal
  // cost more than the scans themselves.
  if (needs !== undefined) for (let i = 0; i < needs.length; i++) if (text.includes(needs[i])) return true;
  if (words === undefined) return false;
  const lower = folded();
  for (let i = 0; i < words.length; i++) if (lower.includes(words[i])) return true;
  return false;
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** `replacement` followed by the line breaks of `match` it does not have itself. */
function withLineBreaks(match: string, replacement: string): string {
  const lost = (match.match(LINE_BREAK)?.length ?? 0) - (replacement.match(LINE_BREAK)?.length ?? 0);
  return lost > 0 ? replacement + '\n'.repeat(lost) : replacement;
}

/** The format rules (SecretRule.format), the only ones run in a user's note that looks made by no machine. */
const FORMAT_RULES = SECRET_RULES.filter((r) => r.format);

/**
 * Where a text holds a literal of a format rule's trigger (Trigger): every `needs` as written, every `folded`
 * in either ASCII case. No match: no format rule can match. (The one folded format trigger, `pmak-`, guards a
 * pattern that ignores case without the u flag, and such a pattern matches an ASCII letter in its two cases
 * only, never `K`, the Kelvin sign, which lower-cases to `k`.) Written out, in the rules' order: made from the
 * rules on first use, escaping each literal, it cost a hook ~0.4 ms more (run interpreted). redact-triggers.test.ts
 * checks that it holds the rules' literals, no more and no fewer.
 */
export const FORMAT_LITERALS = /-----BEGIN |PuTTY-User-Key-File-|https:\/\/hooks\.slack\.com\/|\/api\/webhooks\/|sig=|sk-|k_live_|k_test_|whsec_|AKIA|ASIA|ABIA|ACCA|A3T|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|glptt-|gldt-|glrt-|glcbt-|glimt-|glagent-|glsoat-|glffct-|gloas-|glft-|glwt-|glsa-|GR1348941|xox|xapp-|AIza|GOCSPX-|ya29\.|hf_|api_org_|npm_|pypi-AgE|:A|SG\.|SK|AC|_v1_|shpat_|shpca_|shppa_|shpss_|hvs\.|hvb\.|hvr\.|dapi|glsa_|glc_|[Pp][Mm][Aa][Kk]-|AGE-SECRET-KEY-1|sntrys_|sntryu_|lin_api_|ntn_|sbp_|NRAK-|key-|eyJ/;

/** Passes of redactSecrets at the most; every pass only turns values into [REDACTED], so few are needed. */
const MAX_PASSES = 6;

function redactOnce(text: string, keepLines: boolean, userNote: boolean): string {
  // In a user's note a key-name rule's redaction stands only where what it hides holds a machine-made word,
  // which is then a word of the text itself (what a rule hides is a piece of it, and [REDACTED] joins no
  // word): with none, those rules are not run at all. Most sections have none, and compiling and running the
  // rules cost a cold `tsm hook` ~4.5 ms for three sections (measured: 2,400 characters each, 2 cores).
  const heuristics = !userNote || looksMachineMade(text);
  // Nor, then, are the format rules when the text holds none of their literals, all looked for at once
  // (FORMAT_LITERALS): in a hook, nearly every text (925 of the 958 texts redacted for the 20 benchmark
  // prompts, the handbook) holds none, and the loop below, run interpreted, cost more than its scans.
  if (!heuristics && !FORMAT_LITERALS.test(text)) return redactKeyTails(text, keepLines);
  const rules = heuristics ? SECRET_RULES : FORMAT_RULES;
  const judge = userNote ? noteRedaction : (_original: string, replaced: string) => replaced;
  let out = heuristics ? redactUrlCredentials(text, judge) : text;
  // The text lower-cased, for the rules' folded triggers: made when first asked for, again only once a rule
  // changed the text.
  let lowerOf: string | undefined;
  let lower = '';
  const folded = () => {
    if (lowerOf !== out) [lowerOf, lower] = [out, out.toLowerCase()];
    return lower;
  };
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    if (!mayMatch(rule, out, folded)) continue;
    const replace = rule.replace as (substring: string, ...args: unknown[]) => string;
    const judged = userNote && !rule.format ? (m: string, ...args: unknown[]) => noteRedaction(m, replace(m, ...args)) : replace;
    // A match of these rules can span lines (a key block); the values the functions around read end at a line's end.
    out = out.replace(rule.pattern(), keepLines ? (m: string, ...args: unknown[]) => withLineBreaks(m, judged(m, ...args)) : judged);
  }
  if (heuristics) out = redactEncoded(redactAssignments(redactNameValue(out, judge), judge), judge);
  return redactKeyTails(out, keepLines);
}

// The tail of a private key block whose BEGIN line is not in the text: a section of a long note that starts
// inside the block (sections are cut near chunkChars), a page of read_note, a transcript's `tail id_rsa`. The
// PEM rule above takes every whole block (and one cut after its BEGIN), so an END line still here ends a
// tail: it goes with the lines of key text before it. Found by indexOf and walked back line by line, each
// line looked at once (a walk stops at the last one redacted), so the work is linear in the text.
const KEY_END = /-----END ([A-Z0-9 ]*)PRIVATE KEY(?: BLOCK)?-----/g;
/** A line of a key block's body: base64 (with `N<tab>` in front in read_note's numbered lines). */
const KEY_BODY_LINE = /^[ \t]*(?:\d+\t)?[A-Za-z0-9+/=]+[ \t]*$/;

/** Where the line holding `at` starts, not before `floor` (lastIndexOf would look past it: quadratic). */
function lineStart(text: string, at: number, floor: number): number {
  let i = at;
  while (i > floor && text[i - 1] !== '\n') i--;
  return i;
}

function redactKeyTails(text: string, keepLines: boolean): string {
  if (!text.includes('PRIVATE KEY')) return text;
  const out: string[] = [];
  let from = 0;
  KEY_END.lastIndex = 0;
  for (let m = KEY_END.exec(text); m; m = KEY_END.exec(text)) {
    // The END line's own start, then back over whole lines of key text (not past what was already redacted).
    let start = lineStart(text, m.index, from);
    if (!/^[ \t]*(?:\d+\t)?[A-Za-z0-9+/=]*$/.test(text.slice(start, m.index))) start = m.index;
    // Only from a line's start: an END after prose on its line is no block's last line.
    while (start > from && text[start - 1] === '\n') {
      const previous = lineStart(text, start - 1, from);
      if (!KEY_BODY_LINE.test(text.slice(previous, start - 1))) break;
      start = previous;
    }
    const end = m.index + m[0].length;
    out.push(text.slice(from, start), keepLines ? withLineBreaks(text.slice(start, end), REDACTED) : REDACTED);
    from = end;
  }
  out.push(text.slice(from));
  return out.join('');
}
