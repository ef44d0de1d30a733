// Claude Code tells the model itself, in `user` lines of the transcript (not always marked isMeta), that a
// background command or agent finished (`<task-notification>`; 2.0.76: `<agent-notification>`) or that a
// teammate of an agent team wrote (`<teammate-message teammate_id="…">`). Nobody typed them: they were prompts
// of their own (`## 2. <task-notification>`, the XML as the prompt, Claude's reply to it as its answer). Now
// they are no prompt, and what Claude does after one belongs to the prompt that is going on.
import { describe, expect, it } from 'vitest';
import { applyTranscriptLines } from '../../src/sessions/transcript.js';
import { renderSessionNote } from '../../src/sessions/render.js';

const S = '88888888-2222-3333-4444-555555555555';
const user = (content: unknown, timestamp: string) =>
  JSON.stringify({ type: 'user', sessionId: S, cwd: '/home/me/proj', timestamp, message: { role: 'user', content } });
const assistant = (content: unknown[], timestamp: string, id: string) =>
  JSON.stringify({ type: 'assistant', sessionId: S, cwd: '/home/me/proj', timestamp, message: { id, role: 'assistant', content } });

// The shapes other readers of Claude Code transcripts record (a background Bash, a Monitor event, an agent).
const TASK = '<task-notification>\n<task-id>wf12abc</task-id>\n<tool-use-id>toolu_z</tool-use-id>\n<output-file>/tmp/wf12abc.output</output-file>\n<status>completed</status>\n<summary>Background command "Run the build" completed (exit code 0)</summary>\n</task-notification>';
const AGENT = '<agent-notification>\n<agent-id>a8caf00</agent-id>\n<status>completed</status>\n<summary>Agent "Explore backend" completed.</summary>\n</agent-notification>';
const TEAMMATE = '<teammate-message teammate_id="peer">\nthe schema is merged\n</teammate-message>';

const lines = [
  user('kick off the build please', '2026-03-01T10:00:00Z'),
  assistant([{ type: 'tool_use', id: 'toolu_z', name: 'Bash', input: { command: 'npm run build', run_in_background: true } }], '2026-03-01T10:00:02Z', 'm0'),
  user([{ type: 'tool_result', tool_use_id: 'toolu_z', content: 'Command running in background with ID: wf12abc' }], '2026-03-01T10:00:03Z'),
  assistant([{ type: 'text', text: 'Starting the build now.' }], '2026-03-01T10:00:05Z', 'm1'),
  user(TASK, '2026-03-01T10:10:00Z'),
  assistant([{ type: 'text', text: 'The build finished: exit code 0.' }], '2026-03-01T10:10:05Z', 'm2'),
  user([{ type: 'text', text: AGENT }], '2026-03-01T10:11:00Z'),
  user(TEAMMATE, '2026-03-01T10:12:00Z'),
];

describe("Claude Code's own notices in user lines", () => {
  it('are no prompt: what follows one belongs to the prompt going on', () => {
    const model = applyTranscriptLines(null, lines, S);
    expect(model.prompts.map((p) => p.text)).toEqual(['kick off the build please']);
    expect(model.prompts[0].answer).toBe('The build finished: exit code 0.');
    const note = renderSessionNote(model, { answerChars: 1200 });
    expect(note).not.toMatch(/notification|teammate-message/);
    expect(note.match(/^## /gm)).toHaveLength(1);
  });

  it('typed in the middle of a prompt, such a tag is text', () => {
    const typed = 'why does <task-notification> show up in my transcript?';
    expect(applyTranscriptLines(null, [user(typed, '2026-03-01T10:00:00Z')], S).prompts.map((p) => p.text)).toEqual([typed]);
  });
});
