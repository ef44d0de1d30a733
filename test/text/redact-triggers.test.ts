// A redaction rule runs only on a text that holds one of its literals (text/redact.ts, Trigger). A literal that
// a match can lack would hide that match: the secret would stay. So every match of every rule, in every input
// of the redaction tests, must hold one of its rule's literals, and every rule must have such a match here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FORMAT_LITERALS, isSecretKey, mayMatch, SECRET_KEY_TRIGGER, SECRET_RULES, type SecretRule } from '../../src/text/redact.js';

const root = join(import.meta.dirname, '../..');

/** Every string literal (and template piece) of the redaction tests: their inputs. */
function testInputs(): string[] {
  const files = [
    ...readdirSync(join(root, 'test/sessions')).filter((f) => f.startsWith('redact')).map((f) => `test/sessions/${f}`),
    ...readdirSync(join(root, 'test/text')).filter((f) => f.startsWith('redact') && f !== 'redact-triggers.test.ts').map((f) => `test/text/${f}`),
    'test/helpers/secret-notes.ts',
  ];
  const found: string[] = [];
  for (const file of files) {
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
      else if (ts.isTemplateExpression(node)) found.push(node.head.text, ...node.templateSpans.map((s) => s.literal.text));
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true));
  }
  return found;
}

// One match for each rule the tests' inputs may lack (a rule added without a test still needs one here).
const MORE = [
  'PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-MAC: 0a1b2c',
  'curl https://discord.com/api/webhooks/123456/abcDEF_123',
  'https://acct.blob.core.windows.net/c?sv=2022&sig=abcdefghijklmnop1234',
  'GR1348941abcdefghij0123456789',
  'GOCSPX-abcdefghij0123456789ab ya29.abcdefghij0123456789ab',
  'pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6MDEyMzQ1Njc4OWFi',
  'SG.abcdefghij0123456789.abcdefghij0123456789',
  'dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  'shpat_0123456789abcdef0123456789abcdef',
  'hvs.abcdefghij0123456789abcd',
  'dapi0123456789abcdef0123456789abcdef',
  'glsa_abcdefghij0123456789abcdefghij01_0a1b2c3d',
  'PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01',
  'AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ',
  'NRAK-ABCDEFGHIJ0123456789ABCDEFG',
  'key-0123456789abcdef0123456789abcdef',
  'xapp-1-A0123-abcdefghij',
  'SK0123456789abcdef0123456789abcdef',
];

/** Where `rule` matches `text`, each with the text its lookahead may read after it (260 characters at most). */
function matches(rule: SecretRule, text: string): string[] {
  const re = new RegExp(rule.pattern().source, rule.pattern().flags);
  return [...text.matchAll(re)].map((m) => text.slice(m.index, m.index + m[0].length + 260));
}

describe('the redaction rules’ triggers', () => {
  const inputs = [...testInputs(), ...MORE];

  it('reads the tests’ inputs', () => {
    expect(inputs.length).toBeGreaterThan(1000);
  });

  it.each(SECRET_RULES.map((rule, i) => [i, rule.pattern().source.slice(0, 50), rule] as const))('rule %i (%s): every match holds a literal of its trigger', (_i, _source, rule) => {
    const found = inputs.flatMap((t) => matches(rule, t));
    expect(found.length).toBeGreaterThan(0);
    for (const m of found) expect(mayMatch(rule, m), m).toBe(true);
  });

  it('every secret key of the tests’ inputs holds a word of the key-name trigger', () => {
    const keys = inputs.flatMap((t) => t.match(/[A-Za-z_][A-Za-z0-9_.-]*/g) ?? []).filter(isSecretKey);
    expect(keys.length).toBeGreaterThan(100);
    for (const k of keys) expect(mayMatch(SECRET_KEY_TRIGGER, k), k).toBe(true);
  });

  it('a text with none of a rule’s literals is not looked at, whatever its case', () => {
    const bearer = SECRET_RULES.find((r) => r.folded?.includes('bearer')) as SecretRule;
    expect(mayMatch(bearer, 'BEARER abc')).toBe(true);
    expect(mayMatch(bearer, 'no token here')).toBe(false);
  });

  // redactOnce skips the format rules of a note's text when FORMAT_LITERALS finds none of their literals.
  const format = SECRET_RULES.filter((r) => r.format);

  it('FORMAT_LITERALS is the format rules’ literals written out, no more and no fewer', () => {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const anyCase = (s: string) => escape(s).replace(/[a-z]/g, (c) => `[${c.toUpperCase()}${c}]`);
    const want = format.flatMap((r) => [...(r.needs ?? []).map(escape), ...(r.folded ?? []).map(anyCase)]);
    expect(FORMAT_LITERALS.source, `/${want.join('|')}/`).toBe(want.join('|'));
    expect(FORMAT_LITERALS.flags).toBe('');
  });

  it('FORMAT_LITERALS finds what each format rule’s trigger finds', () => {
    const literals = format.flatMap((r) => [...(r.needs ?? []), ...(r.folded ?? [])]);
    const texts = [...inputs, ...literals, ...literals.map((l) => `x ${l.toUpperCase()} y`), 'PmAk-', 'PMA-K', 'no literal here'];
    for (const t of texts) expect(FORMAT_LITERALS.test(t), t).toBe(format.some((r) => mayMatch(r, t)));
    // The one difference: the Kelvin sign lower-cases to `k`, and no pattern ignoring case without the u flag reads it as one.
    expect(mayMatch(format.find((r) => r.folded?.includes('pmak-')) as SecretRule, 'PMA\u212A-')).toBe(true);
    expect(FORMAT_LITERALS.test('PMA\u212A-')).toBe(false);
    expect(/PMAK-/i.test('PMA\u212A-')).toBe(false);
  });
});
