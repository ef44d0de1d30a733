// A message the user types while Claude is working is handed to the running turn, and Claude Code 2.1 writes
// it as an attachment, not as a user line: `queue-operation` lines mark the queue, then
// `{"type":"attachment","attachment":{"type":"queued_command","prompt":…,"commandMode":"prompt","origin":{"kind":"human"}}}`.
// It was not in the note at all, and what Claude did about it went to the prompt before. (The shape as other
// readers of Claude Code transcripts record it from 2.1 captures; no such line is in the real fixtures.)
import { describe, expect, it } from 'vitest';
import { applyTranscriptLines } from '../../src/sessions/transcript.js';

const S = '99999999-2222-3333-4444-555555555555';
const base = (timestamp: string) => ({ sessionId: S, cwd: '/home/me/proj', timestamp });
const user = (content: unknown, ts: string) => JSON.stringify({ type: 'user', ...base(ts), message: { role: 'user', content } });
const tool = (id: string, command: string, ts: string) =>
  JSON.stringify({ type: 'assistant', ...base(ts), message: { id: `m-${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } });
const result = (id: string, ts: string) => user([{ type: 'tool_result', tool_use_id: id, content: 'ok' }], ts);
const queued = (attachment: Record<string, unknown>, ts: string) => JSON.stringify({ type: 'attachment', ...base(ts), attachment: { type: 'queued_command', ...attachment } });
const queue = (operation: string, content: string, ts: string) => JSON.stringify({ type: 'queue-operation', operation, ...base(ts), content });

describe('a prompt typed while Claude works (a queued_command attachment)', () => {
  it('is a prompt, and what Claude does after it is its actions', () => {
    const model = applyTranscriptLines(
      null,
      [
        user('run the tests', '2026-03-01T10:00:00Z'),
        tool('t1', 'npm test', '2026-03-01T10:00:02Z'),
        queue('enqueue', 'also check the lint', '2026-03-01T10:00:03Z'),
        result('t1', '2026-03-01T10:00:04Z'),
        queue('remove', 'also check the lint', '2026-03-01T10:00:05Z'),
        queued({ prompt: 'also check the lint', commandMode: 'prompt', origin: { kind: 'human' } }, '2026-03-01T10:00:03Z'),
        tool('t2', 'npm run lint', '2026-03-01T10:00:06Z'),
        result('t2', '2026-03-01T10:00:07Z'),
        // Text blocks and an image, as a pasted screenshot comes.
        queued({ prompt: [{ type: 'text', text: 'and match this layout' }, { type: 'image', source: {} }], commandMode: 'prompt' }, '2026-03-01T10:00:08Z'),
      ],
      S,
    );
    expect(model.prompts.map((p) => p.text)).toEqual(['run the tests', 'also check the lint', 'and match this layout\n\n[image]']);
    expect(model.prompts.map((p) => p.actions.map((a) => a.command))).toEqual([['npm test'], ['npm run lint'], []]);
    expect(model.prompts[1].timestamp).toBe('2026-03-01T10:00:03Z');
  });

  it('is none when Claude Code queued it itself or a peer sent it', () => {
    const model = applyTranscriptLines(
      null,
      [
        user('run the tests', '2026-03-01T10:00:00Z'),
        queued({ prompt: '<task-notification>\n<task-id>b3</task-id>\n</task-notification>', commandMode: 'task-notification' }, '2026-03-01T10:00:01Z'),
        queued({ prompt: '[Subagent hand-back] review written', commandMode: 'prompt', origin: { kind: 'peer', from: 'a1' } }, '2026-03-01T10:00:02Z'),
        JSON.stringify({ type: 'attachment', ...base('2026-03-01T10:00:03Z'), attachment: { type: 'total_tokens_reminder', text: '<total_tokens>1</total_tokens>' } }),
        queued({ prompt: 42 }, '2026-03-01T10:00:04Z'),
      ],
      S,
    );
    expect(model.prompts.map((p) => p.text)).toEqual(['run the tests']);
  });
});
