// The VS Code / JetBrains integrations put the open file and the selected lines into the user's message as
// text blocks of their own. They are context, not the prompt: never the note's title, heading or body.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestTranscript } from '../../src/sessions/ingest.js';
import { promptFromUserText, userText } from '../../src/sessions/user-message.js';

const OPENED = '<ide_opened_file>The user opened the file /home/me/src/proj/src/radio.c in the IDE. This may or may not be related to the current task.</ide_opened_file>';
const SELECTED = '<ide_selection>The user selected the lines 10 to 12 from /home/me/src/proj/.env:\nDB_HOST=db\nAPI_SECRET_VALUE_X=zzz\n\nThis may or may not be related to the current task.</ide_selection>';
const prompt = (content: Parameters<typeof userText>[0]) => promptFromUserText(userText(content));

describe('IDE context blocks', () => {
  it('are not the prompt, as blocks of their own or inside the typed text', () => {
    expect(prompt([{ type: 'text', text: OPENED }, { type: 'text', text: 'why does the receiver reset on startup?' }])).toBe('why does the receiver reset on startup?');
    expect(prompt([{ type: 'text', text: SELECTED }, { type: 'text', text: 'is this config right?' }])).toBe('is this config right?');
    expect(prompt(`${OPENED}\nwhy does it reset?`)).toBe('why does it reset?');
    expect(prompt(`why does it reset? ${SELECTED}`)).toBe('why does it reset?');
  });

  it('alone are no prompt at all', () => {
    expect(prompt([{ type: 'text', text: OPENED }])).toBeNull();
  });

  it('left unclosed hide the rest of their own block only', () => {
    expect(prompt([{ type: 'text', text: '<ide_selection>The user selected API_KEY=abc' }, { type: 'text', text: 'check this' }])).toBe('check this');
  });

  it('left unclosed inside typed text are text: the prompt stays whole', () => {
    const typed = 'why does the <ide_selection> tag show up in my LoRa notes?';
    expect(prompt(typed)).toBe(typed);
    expect(prompt([{ type: 'text', text: typed }])).toBe(typed);
    expect(prompt(`  <ide_opened_file>The user opened the file /x/.env`)).toBeNull();
    // A closed pair after a typed tag is dropped; the typed text before it stays.
    expect(prompt(`what is <ide_selection> here? ${SELECTED}`)).toBe('what is <ide_selection> here?');
  });

  it('other tags the user typed stay', () => {
    expect(prompt('what does <ide_thing> mean in the log?')).toBe('what does <ide_thing> mean in the log?');
  });
});

describe('a session with IDE context', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tsm-ide-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is titled and headed by what the user typed, and holds no selection', () => {
    const sid = 'bbbbbbbb-0000-0000-0000-000000000001';
    const base = { isSidechain: false, cwd: '/home/me/src/proj', sessionId: sid, version: '2.0.76', gitBranch: 'main' };
    const lines = [
      { ...base, type: 'user', uuid: 'u1', timestamp: '2026-03-01T10:00:01Z', message: { role: 'user', content: [{ type: 'text', text: OPENED }, { type: 'text', text: 'why does the receiver reset on startup?' }] } },
      { ...base, type: 'assistant', uuid: 'a1', timestamp: '2026-03-01T10:00:03Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Because the watchdog fires.' }] } },
      { ...base, type: 'user', uuid: 'u2', timestamp: '2026-03-01T10:01:00Z', message: { role: 'user', content: [{ type: 'text', text: SELECTED }, { type: 'text', text: 'is this config right?' }] } },
    ];
    const transcript = join(root, `${sid}.jsonl`);
    writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const vault = join(root, 'vault');
    mkdirSync(vault);
    const r = ingestTranscript(transcript, { vault, sessionsDir: join(vault, 'sessions'), stateDir: join(vault, '.tsm', 'sessions') });
    const note = readFileSync(r.notePath, 'utf8');
    expect(note).toContain('# proj: why does the receiver reset on startup?');
    expect(note).toContain('## 2. is this config right?');
    expect(note).not.toMatch(/ide_|opened the file|API_SECRET_VALUE_X|DB_HOST/);
    const state = readdirSync(join(vault, '.tsm', 'sessions')).map((f) => readFileSync(join(vault, '.tsm', 'sessions', f), 'utf8')).join('');
    expect(state).not.toMatch(/API_SECRET_VALUE_X|DB_HOST/);
  });
});
