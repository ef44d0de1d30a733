import { describe, expect, it } from 'vitest';
import { canonicalEvent, essentialPayload, HookInputError, parseHookPayload } from '../../src/hooks/payload.js';

describe('parseHookPayload', () => {
  it('reads the fields of every event and ignores unknown ones', () => {
    const p = parseHookPayload(
      JSON.stringify({
        session_id: 'abc',
        transcript_path: '/t/abc.jsonl',
        cwd: '/proj',
        hook_event_name: 'UserPromptSubmit',
        prompt: 'LoRa antenna',
        source: 'compact',
        reason: 'clear',
        trigger: 'auto',
        permission_mode: 'default',
        something_new: { nested: [1, 2] },
      }),
    );
    expect(p).toEqual({
      eventName: 'UserPromptSubmit',
      sessionId: 'abc',
      transcriptPath: '/t/abc.jsonl',
      cwd: '/proj',
      prompt: 'LoRa antenna',
      source: 'compact',
      reason: 'clear',
      trigger: 'auto',
    });
  });

  it('treats missing, empty and wrongly typed fields as absent', () => {
    const p = parseHookPayload(JSON.stringify({ hook_event_name: '', session_id: 42, cwd: ['x'], prompt: null }));
    expect(p).toEqual({
      eventName: null,
      sessionId: null,
      transcriptPath: null,
      cwd: null,
      prompt: null,
      source: null,
      reason: null,
      trigger: null,
    });
  });

  it('keeps an empty prompt as text (it is a prompt, just too short)', () => {
    expect(parseHookPayload('{"prompt":""}').prompt).toBe('');
  });

  it('accepts a byte order mark and surrounding whitespace', () => {
    expect(parseHookPayload('\uFEFF  {"hook_event_name":"Stop"}\n').eventName).toBe('Stop');
  });

  it.each([
    ['', /no hook payload/],
    ['   \n', /no hook payload/],
    ['{"prompt": "cut', /not valid JSON/],
    ['not json', /not valid JSON/],
    ['[1,2]', /must be a JSON object \(got an array\)/],
    ['null', /must be a JSON object \(got null\)/],
    ['"text"', /must be a JSON object \(got string\)/],
    ['42', /must be a JSON object \(got number\)/],
  ])('rejects %j with a clear message', (stdin, message) => {
    expect(() => parseHookPayload(stdin)).toThrow(HookInputError);
    expect(() => parseHookPayload(stdin)).toThrow(message);
  });
});

describe('canonicalEvent', () => {
  it.each([
    ['UserPromptSubmit', 'UserPromptSubmit'],
    ['user-prompt-submit', 'UserPromptSubmit'],
    ['SESSION_START', 'SessionStart'],
    ['session-start', 'SessionStart'],
    ['stop', 'Stop'],
    ['precompact', 'PreCompact'],
    ['SessionEnd', 'SessionEnd'],
  ])('%s → %s', (name, event) => {
    expect(canonicalEvent(name)).toBe(event);
  });

  it.each(['PreToolUse', 'Notification', 'startup', ''])('%j is not handled', (name) => {
    expect(canonicalEvent(name)).toBeNull();
  });

  it('handles null and undefined', () => {
    expect(canonicalEvent(null)).toBeNull();
    expect(canonicalEvent(undefined)).toBeNull();
  });
});

describe('essentialPayload', () => {
  it('keeps only what a detached ingest needs, and parses back to the same fields', () => {
    const p = parseHookPayload(
      JSON.stringify({ hook_event_name: 'SessionEnd', session_id: 's', transcript_path: '/t/s.jsonl', cwd: '/p', reason: 'exit', prompt: 'x'.repeat(50_000) }),
    );
    const small = essentialPayload(p);
    expect(small.length).toBeLessThan(200);
    const back = parseHookPayload(small);
    expect(back).toEqual({ ...p, prompt: null });
  });
});
