// Plan mode: the plan Claude puts to the user (ExitPlanMode) is what the user approved, so the session note
// keeps it — redacted, bounded — with what the user did with it. It was lost: the note said `- ExitPlanMode`.
//
// The lines below have the shapes of Claude Code's own: 2.0.x writes the plan as the tool use's `input.plan`
// and its result as "User has approved your plan. …" with `toolUseResult: {plan, isAgent}`; a refusal is the
// usual "The user doesn't want to proceed with this tool use. …"; from 2.1 the result may carry the plan the
// user edited (`planWasEdited`). The real 2.1.38 fixture has a plan mode with no plan (input {}, plan null).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestTranscript } from '../../src/sessions/ingest.js';
import { renderSessionNote } from '../../src/sessions/render.js';
import { applyTranscriptLines } from '../../src/sessions/transcript.js';
import { sessionPathPart } from '../../src/sessions/note-format.js';
import { PLAN_CHARS } from '../../src/sessions/tools.js';
import { fixtureLines, headingsOf } from './helpers.js';

const SID = 'b1a2c3d4-0000-4000-8000-00000000aaaa';
const base = { isSidechain: false, userType: 'external', cwd: '/home/me/src/tracker', sessionId: SID, version: '2.0.76', gitBranch: 'main' };
let clock = 0;
const at = () => `2026-03-01T10:${String(Math.floor(clock / 60)).padStart(2, '0')}:${String(clock++ % 60).padStart(2, '0')}.000Z`;

const prompt = (text: string) => ({ ...base, type: 'user', uuid: `u${clock}`, timestamp: at(), message: { role: 'user', content: text } });
const planUse = (id: string, input: Record<string, unknown>) => ({
  ...base,
  type: 'assistant',
  uuid: `a${clock}`,
  timestamp: at(),
  message: { id: `msg_${id}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'ExitPlanMode', input }] },
});
const result = (id: string, content: string, toolUseResult: unknown, isError = false) => ({
  ...base,
  type: 'user',
  uuid: `r${clock}`,
  timestamp: at(),
  message: { role: 'user', content: [{ type: 'tool_result', content, ...(isError ? { is_error: true } : {}), tool_use_id: id }] },
  toolUseResult,
});
const answer = (text: string) => ({
  ...base,
  type: 'assistant',
  uuid: `a${clock}`,
  timestamp: at(),
  message: { id: `msg_t${clock}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }] },
});

const APPROVED = 'User has approved your plan. You can now start coding. Start with updating your todo list if applicable';
const REFUSED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n";

const PLAN = '# Plan: LoRa range test\n\n## Steps\n1. Flash the SF12 build onto both boards\n2. Log RSSI every 100 m along the forest road\n\nAPI_TOKEN=zq8Xv3pLmN0bT7rW <private>home address: 1 Elm St</private>';

const note = (lines: object[]) => renderSessionNote(applyTranscriptLines(null, lines.map((l) => JSON.stringify(l)), SID), { answerChars: 1200 });

describe('a plan put to the user (ExitPlanMode)', () => {
  it('approved (2.0.x): the note keeps the plan, says it was approved, names it in the action line', () => {
    const md = note([prompt('plan the LoRa range test'), planUse('t1', { plan: PLAN }), result('t1', APPROVED, { plan: PLAN, isAgent: false }), answer('Flashing now.')]);
    expect(md).toContain('- ExitPlanMode `Plan: LoRa range test`');
    expect(md).toMatch(/### Plan\n\nApproved by the user\.\n\n\\# Plan: LoRa range test\n\n\\## Steps\n1\. Flash the SF12 build/);
    expect(md).toContain('2. Log RSSI every 100 m along the forest road');
    // Redacted like the rest of the note: secrets, private spans.
    expect(md).toContain('API_TOKEN=[REDACTED]');
    expect(md).not.toMatch(/zq8Xv3pLmN0bT7rW|Elm St/);
    // The plan's own headings stay text: they cannot add sections to the note.
    expect(headingsOf(md).map((h) => `${h.depth} ${h.text}`)).toEqual(['1 tracker: plan the LoRa range test', '2 1. plan the LoRa range test', '3 Actions', '3 Plan', '3 Answer']);
  });

  it('rejected with feedback: the plan is kept, marked rejected, and the feedback is the next prompt', () => {
    const revised = '# Plan: LoRa range test, v2\n\n1. Measure battery drain first';
    const md = note([
      prompt('plan the LoRa range test'),
      planUse('t1', { plan: PLAN }),
      result('t1', `${REFUSED}measure the battery drain first`, `Error: ${REFUSED}measure the battery drain first`, true),
      planUse('t2', { plan: revised }),
      result('t2', APPROVED, { plan: revised, isAgent: false }),
    ]);
    expect(md).toMatch(/## 1\. plan the LoRa range test[\s\S]*- ExitPlanMode `Plan: LoRa range test` → refused\n\n### Plan\n\nRejected by the user\.\n\n\\# Plan: LoRa range test\n/);
    expect(md).toMatch(/## 2\. measure the battery drain first[\s\S]*### Plan\n\nApproved by the user\.\n\n\\# Plan: LoRa range test, v2\n\n1\. Measure battery drain first/);
  });

  it('edited before approval: the note keeps the plan the user approved, and says it was edited', () => {
    const edited = '# Plan: LoRa range test\n\n1. Only the north road this week';
    const md = note([prompt('plan it'), planUse('t1', { plan: PLAN }), result('t1', APPROVED, { plan: edited, isAgent: false, planWasEdited: true })]);
    expect(md).toContain('Approved by the user, who edited it first.\n\n\\# Plan: LoRa range test\n\n1. Only the north road this week');
    expect(md).not.toContain('forest road');
  });

  it('with the plan only in the result (input {}), the result gives it', () => {
    const md = note([prompt('plan it'), planUse('t1', {}), result('t1', APPROVED, { plan: PLAN, isAgent: false, filePath: '/home/me/.claude/plans/x.md' })]);
    expect(md).toContain('### Plan\n\nApproved by the user.\n\n\\# Plan: LoRa range test');
  });

  it('unanswered yet: the plan is kept, with no verdict', () => {
    const md = note([prompt('plan it'), planUse('t1', { plan: PLAN })]);
    expect(md).toMatch(/### Plan\n\n\\# Plan: LoRa range test/);
    expect(md).not.toMatch(/Approved|Rejected/);
  });

  it('a long plan is kept as its head, with how much of how much was kept', () => {
    const long = `# Plan: big refactor\n\n${Array.from({ length: 3000 }, (_, i) => `- step ${i}: move module ${i} behind the new interface`).join('\n')}`;
    const md = note([prompt('plan it'), planUse('t1', { plan: long }), result('t1', APPROVED, { plan: long, isAgent: false })]);
    const plan = md.slice(md.indexOf('### Plan'));
    expect(plan.length).toBeLessThan(PLAN_CHARS + 200);
    expect(plan).toMatch(new RegExp(`\\(([\\d,]+) of ${long.length.toLocaleString('en-US')} characters kept\\)`));
  });

  it('real 2.1.38 transcript: plan mode with no plan (input {}, plan null) writes no Plan section', () => {
    const md = renderSessionNote(applyTranscriptLines(null, fixtureLines('claude-code-2.1.38-plan-subagent-session.jsonl'), 'x'), { answerChars: 1200 });
    expect(md).toContain('- ExitPlanMode\n');
    expect(md).not.toContain('### Plan');
  });

  it('a Plan section is what the session decided, not an echo of the prompt (the prompt hook may inject it)', () => {
    expect(sessionPathPart('tracker: plan it > 1. plan it > Plan')).toBe('plan');
    expect(sessionPathPart('tracker: plan it > 1. plan it')).toBe('request');
  });
});

describe('a plan across two ingests (the result arrives in the next Stop)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tsm-plan-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('the note gains the verdict without losing the plan', () => {
    const transcript = join(root, `${SID}.jsonl`);
    const opts = { vault: root, sessionsDir: join(root, 'sessions'), stateDir: join(root, '.tsm', 'sessions') };
    writeFileSync(transcript, [prompt('plan it'), planUse('t1', { plan: PLAN })].map((l) => JSON.stringify(l) + '\n').join(''));
    const first = ingestTranscript(transcript, opts);
    expect(readFileSync(first.notePath, 'utf8')).not.toContain('Approved by the user.');
    writeFileSync(transcript, JSON.stringify(result('t1', APPROVED, { plan: PLAN, isAgent: false })) + '\n', { flag: 'a' });
    const second = ingestTranscript(transcript, opts);
    expect(second.notePath).toBe(first.notePath);
    expect(readFileSync(second.notePath, 'utf8')).toContain('### Plan\n\nApproved by the user.\n\n\\# Plan: LoRa range test');
  });
});
