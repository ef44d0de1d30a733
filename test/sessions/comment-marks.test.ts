// `%%` opens an Obsidian comment that runs to the next `%%` or to the end of the note, and the index blanks
// it out (parse-note.ts blankComments), headings included. Transcript text holds `%%` often (printf's
// "%d%%", SQL's LIKE '%%', Mermaid's `%% note`, Jupyter's %%time): in a session note one such line hid
// every later prompt from the index (tsm search found none of them; the prompt hook could inject nothing
// of them). Each `%%` outside code is written `%\%`, which renders as `%%` and opens nothing.
import { describe, expect, it } from 'vitest';
import { parseNote } from '../../src/parse/parse-note.js';
import { DEFAULT_PARSE_OPTIONS } from '../../src/parse/options.js';
import { sessionPrompts } from '../../src/sessions/note-format.js';
import { renderSessionNote } from '../../src/sessions/render.js';
import { applyTranscriptLines } from '../../src/sessions/transcript.js';
import type { SectionRecord } from '../../src/core/types.js';
import { headingsOf } from './helpers.js';

const SID = 'e1a2c3d4-0000-4000-8000-00000000dddd';
const base = { isSidechain: false, userType: 'external', cwd: '/home/me/src/tracker', sessionId: SID, version: '2.0.76', gitBranch: 'main' };
let clock = 0;
const at = () => new Date(Date.UTC(2026, 2, 1, 10, 0, clock++)).toISOString();
const prompt = (text: string) => ({ ...base, type: 'user', uuid: `u${clock}`, timestamp: at(), message: { role: 'user', content: text } });
const answer = (text: string) => ({ ...base, type: 'assistant', uuid: `a${clock}`, timestamp: at(), message: { id: `m${clock}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }] } });
const plan = (id: string, text: string) => [
  { ...base, type: 'assistant', uuid: `a${clock}`, timestamp: at(), message: { id: `m${clock}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'ExitPlanMode', input: { plan: text } }] } },
  { ...base, type: 'user', uuid: `r${clock}`, timestamp: at(), message: { role: 'user', content: [{ type: 'tool_result', content: 'User has approved your plan.', tool_use_id: id }] }, toolUseResult: { plan: text, isAgent: false } },
];

const bash = (id: string, command: string) => [
  { ...base, type: 'assistant', uuid: `a${clock}`, timestamp: at(), message: { id: `m${clock}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } },
  { ...base, type: 'user', uuid: `r${clock}`, timestamp: at(), message: { role: 'user', content: [{ type: 'tool_result', content: '42%', tool_use_id: id }] } },
];

function noteOf(lines: object[]): string {
  return renderSessionNote(applyTranscriptLines(null, lines.map((l) => JSON.stringify(l)), SID), { answerChars: 1200 });
}

/** The note as the index reads it (the real parser). */
function sectionsOf(markdown: string): SectionRecord[] {
  const parsed = parseNote({ path: 'sessions/s.md', content: markdown, mtimeMs: 0 }, DEFAULT_PARSE_OPTIONS);
  return parsed.sections.map((s, i) => ({ id: i + 1, noteId: 1, ord: i, heading: s.heading, level: s.level, headingPath: s.headingPath, startLine: s.startLine, endLine: s.endLine, text: s.text }));
}

describe('%% in a session note', () => {
  const cases: [string, object[]][] = [
    ['a prompt (and so its heading and the title)', [prompt('format the ratio with printf("%d%%", pct)'), answer('done')]],
    ['a prompt line of its own', [prompt('why does this cell fail?\n%%time\nrun()'), answer('done')]],
    ['an answer', [prompt('how do I match a percent sign?'), answer("Use LIKE '100%%' for a literal percent sign")]],
    ['a command (in code on its action line)', [prompt('print it'), bash('t0', 'printf "%d%%\\n" 42')]],
    ['a plan', [prompt('plan the chart'), ...plan('t1', '# Plan\n\n1. Add the Mermaid note\n%% colours from the theme\n2. Render')]],
  ];
  for (const [where, first] of cases) {
    it(`in ${where} hides nothing after it from the index`, () => {
      const md = noteOf([...first, prompt('now fix the zebracorn parser'), answer('fixed the zebracorn parser')]);
      const back = sessionPrompts(sectionsOf(md));
      expect(back.map((p) => p.n)).toEqual([1, 2]);
      expect(back[1].answer).toContain('fixed the zebracorn parser');
      // Every heading a CommonMark parser sees, the index sees too.
      const indexed = sectionsOf(md).filter((s) => s.level > 0).map((s) => s.heading);
      expect(indexed).toEqual(headingsOf(md).map((h) => h.text));
      // Still shown as %% by a markdown reader: only escaped.
      expect(md).not.toMatch(/(?<!`[^`\n]*)%%/);
    });
  }

  it('in a code span or a code block is code, and stays as written', () => {
    const md = noteOf([prompt('why is `printf("%d%%")` wrong?\n\n```\nSELECT * WHERE a LIKE \'%%\'\n```'), answer('it is fine'), prompt('zebracorn'), answer('ok')]);
    expect(md).toContain('`printf("%d%%")`');
    expect(md).toContain("SELECT * WHERE a LIKE '%%'");
    expect(sessionPrompts(sectionsOf(md)).map((p) => p.n)).toEqual([1, 2]);
  });
});
