// End to end: what the BUILT `tsm hook` injects into a prompt (sent to the model API without the user asking)
// has the secrets of the user's own notes redacted (docs/claude-code.md "What the hooks inject is redacted
// too": the format rules, and values that look made by a machine); `tsm search` in the terminal shows the note
// as written.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';
import { elements, parseXml, type XmlElement } from '../format/xml-tree.js';
import { AWS_NOTE, CODE_NOTE, CUT_KEY, CUT_NOTE, expectNoSecret, MID_KEY, MID_NOTE, PLAIN_NOTE, SECRETS, SSH_KEY } from '../helpers/secret-notes.js';

const vault = useIndexedVault({
  'infra/aws.md': AWS_NOTE,
  'infra/gateway.md': CUT_NOTE,
  'infra/bastion.md': MID_NOTE,
  'release.md': PLAIN_NOTE,
  'dev/signup.md': CODE_NOTE,
  'knowledge/db-note.md': `# DB_PASSWORD=${SECRETS.dbPassword}\n\nthe title says it\n`,
});

function hook(payload: Record<string, unknown>, env: Record<string, string> = {}): string {
  const r = tsm(['hook', '--vault', vault.dir], { cwd: vault.dir, env, input: JSON.stringify({ session_id: 's1', transcript_path: '/nowhere/s1.jsonl', cwd: vault.dir, ...payload }) });
  expect(r.code, r.stderr).toBe(0);
  // stdout is one JSON object: what Claude Code reads and sends on.
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

const promptHook = (prompt: string, env: Record<string, string> = {}) => hook({ hook_event_name: 'UserPromptSubmit', prompt }, env);

/** The results of the injected block (parsed strictly: the XML stays well-formed). */
function results(xml: string): { source: string; section: string; snippet: string }[] {
  const text = (el: XmlElement, name: string) => elements(el, name)[0]?.children.join('') ?? '';
  return elements(parseXml(xml), 'result').map((r) => ({ source: text(r, 'source'), section: text(r, 'section'), snippet: text(r, 'snippet').trim() }));
}

describe('the prompt hook injects notes with their secrets redacted', () => {
  it('a note of credentials: every secret is [REDACTED], and the XML stays well-formed', () => {
    const xml = promptHook('how do I connect to the aws db');
    const found = results(xml).find((r) => r.source === 'infra/aws.md');
    expect(found?.snippet).toContain('[REDACTED]');
    expect(found?.snippet).toContain('How to connect to the aws db');
    expectNoSecret(xml, SSH_KEY);
  });

  it('a budget that ends inside a key block shows none of its lines', () => {
    // A long snippet cut to a budget that ends in the key block: its BEGIN line and first lines were shown.
    const xml = promptHook('gateway tunnel key', { TSM_SNIPPET_BUDGET: '400' });
    const found = results(xml).find((r) => r.source === 'infra/gateway.md');
    expect(found?.snippet).toContain('The gateway tunnel key follows.');
    expectNoSecret(xml, CUT_KEY);
  });

  it('a snippet whose window opens inside a key block shows none of it', () => {
    const xml = promptHook('zebra deployment');
    const found = results(xml).find((r) => r.source === 'infra/bastion.md');
    expect(found?.snippet).toContain('Zebra deployment goes through the bastion.');
    expectNoSecret(xml, MID_KEY);
    expect(xml).not.toContain('END RSA PRIVATE KEY');
  });

  it('a heading (the section path) is redacted too', () => {
    const xml = promptHook('the title says it');
    expect(results(xml).find((r) => r.section.startsWith('DB_PASSWORD='))?.section).toBe('DB_PASSWORD=[REDACTED]');
  });

  it('SessionStart lists a title redacted', () => {
    const md = hook({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(md).toContain('DB_PASSWORD=[REDACTED]');
    expect(md).not.toContain(SECRETS.dbPassword.slice(0, 7));
  });

  it('a note without secrets is injected as `tsm search` shows it, byte for byte', () => {
    const xml = promptHook('release checklist logo');
    const found = results(xml).find((r) => r.source === 'release.md');
    const cli = tsm(['search', '--vault', vault.dir, '-f', 'json', 'release checklist logo']);
    expect(cli.code, cli.stderr).toBe(0);
    const hit = (JSON.parse(cli.stdout) as { path: string; snippet: string; section: string }[]).find((h) => h.path === 'release.md');
    expect(found?.snippet).toBe(hit?.snippet);
    expect(found?.section).toBe(hit?.section);
    expect(xml).not.toContain('[REDACTED]');
    for (const kept of ['kept in 1Password', '03de26d4f2a1b2c3d4e5f60718293a4b5c6d7e8f', '3f9a2c1e-7b4d-4e21-9c0a-5d8e6f1b2a34', 'max_tokens=512']) expect(found?.snippet).toContain(kept);
  });

  it('a note of code and prose that name passwords is injected as written: nothing there looks made by a machine', () => {
    // The session rules redact each of these lines (a transcript leans to redacting); a note the user wrote
    // keeps them, so that its code reaches the model as it is.
    const xml = promptHook('how does the signup form keep the password');
    const found = results(xml).find((r) => r.source === 'dev/signup.md');
    expect(found, xml).toBeDefined();
    const cli = tsm(['search', '--vault', vault.dir, '-f', 'json', 'how does the signup form keep the password']);
    const hit = (JSON.parse(cli.stdout) as { path: string; snippet: string }[]).find((h) => h.path === 'dev/signup.md');
    expect(found?.snippet).toBe(hit?.snippet);
    expect(found?.snippet).not.toContain('[REDACTED]');
    expect(found?.snippet).toContain('new_user.password = params[:password]');
  });

  it('`tsm search` in the terminal shows the note as written', () => {
    const r = tsm(['search', '--vault', vault.dir, 'aws db connect']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(SECRETS.dbPassword);
  });
});
