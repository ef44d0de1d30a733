// The pure parts of the command line's hook handling and error reporting.
import { describe, expect, it } from 'vitest';
import { commandOf, isHookPayload, looksLikeHookPayload, parseHookArgs } from '../../src/cli/hook-args.js';
import { useColor } from '../../src/cli/args.js';
import { closest, editDistance, unknownOptionMessage } from '../../src/cli/suggest.js';
import { UsageError, UserError } from '../../src/cli/run.js';
import { isExplained, isUsageError } from '../../src/core/errors.js';
import { oneLineEscape } from '../../src/format/escape.js';
import { Deadline } from '../../src/hooks/deadline.js';
import { formatLogLine } from '../../src/hooks/hook-log.js';
import { MAX_PROMPT_CHARS, parseHookPayload } from '../../src/hooks/payload.js';
import { ConfigError } from '../../src/vault/config.js';

describe('commandOf / parseHookArgs', () => {
  it('finds the command past options, and none in a bare or options-only argument list', () => {
    expect(commandOf(['--db', 'hook'])).toBe('hook');
    expect(commandOf(['-v', 'hook', 'x'])).toBe('hook');
    expect(commandOf(['search', 'hook'])).toBe('search');
    expect(commandOf([])).toBeNull();
    expect(commandOf(['--versoin'])).toBeNull();
    expect(commandOf(['--', 'hook'])).toBeNull();
  });

  it('reads --vault/--db in both spellings, the event after hook, and ignores everything else', () => {
    expect(parseHookArgs(['hook', 'session-start', '--vault', '/v', '--db=/d.db'])).toEqual({ vault: '/v', db: '/d.db', event: 'session-start', ignored: [] });
    expect(parseHookArgs(['--db', 'hook'])).toEqual({ ignored: ['--db'] }); // `hook` is the command, not --db's value
    expect(parseHookArgs(['-v', 'hook', '--bogus', '--vault='])).toEqual({ ignored: ['-v', '--bogus', '--vault='] });
    expect(parseHookArgs(['--vault', '--db', 'x.db', 'hook'])).toEqual({ db: 'x.db', ignored: ['--vault'] });
    expect(parseHookArgs([])).toEqual({ ignored: [] });
    expect(parseHookArgs(['stray', 'hook'])).toEqual({ ignored: ['stray'] });
  });

  it('never throws, whatever the argument list', () => {
    const odd = ['', '-', '--', '=', '--=', '--vault', '--db', 'hook', '\n', '--vault=\u0000', '-abc', 'hook'];
    for (let i = 0; i < odd.length; i++) for (let j = 0; j < odd.length; j++) expect(() => parseHookArgs([odd[i], odd[j], odd[(i + j) % odd.length]])).not.toThrow();
  });
});

describe('isHookPayload', () => {
  it('is a JSON object with a string hook_event_name, nothing else', () => {
    expect(isHookPayload('{"hook_event_name":"UserPromptSubmit","prompt":"x"}')).toBe(true);
    expect(isHookPayload('\uFEFF  {"hook_event_name":"Stop"}')).toBe(true);
    for (const text of [null, '', 'hello', '{"prompt":"x"}', '{"hook_event_name":3}', '["hook_event_name"]', '{"hook_event_name":"x"', 'null']) {
      expect(isHookPayload(text)).toBe(false);
    }
  });
});

describe('looksLikeHookPayload', () => {
  it('also takes a damaged payload (the hook then says what is wrong), nothing that is not one', () => {
    expect(looksLikeHookPayload('{"hook_event_name":"UserPromptSubmit","prompt":"Lo')).toBe(true);
    for (const text of [null, '', 'hook_event_name', '["hook_event_name"]', '{"prompt":"x"}']) expect(looksLikeHookPayload(text)).toBe(false);
  });
});

describe('suggestions', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('versoin', 'version')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('limt', 'limit')).toBe(1);
  });

  it('suggests only a close name, and writes balanced quotes', () => {
    expect(closest('versoin', ['help', 'version'])).toBe('version');
    expect(closest('zzzzzz', ['help', 'version'])).toBeNull();
    const msg = unknownOptionMessage('--versoin', ['help', 'version']);
    expect(msg).toBe('unknown option --versoin (did you mean --version?)');
    expect(unknownOptionMessage('-x', ['help'])).toBe('unknown option -x');
    const specs = { format: { alias: 'f', choices: ['text', 'json'] }, detail: { choices: ['high'] } };
    expect(unknownOptionMessage('--json', ['format', 'detail'], specs)).toBe('unknown option --json (did you mean -f json?)');
    expect(unknownOptionMessage('--high', ['format', 'detail'], specs)).toBe('unknown option --high (did you mean --detail high?)');
    expect(unknownOptionMessage('--jsno', ['format', 'detail'], specs)).toBe('unknown option --jsno');
  });
});

describe('colour', () => {
  it('FORCE_COLOR forces it even to a pipe, FORCE_COLOR=0 refuses it, NO_COLOR refuses it, a pipe never gets it otherwise', () => {
    expect(useColor(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(useColor(false, { FORCE_COLOR: '' })).toBe(true);
    expect(useColor(true, { FORCE_COLOR: '0' })).toBe(false);
    expect(useColor(true, { FORCE_COLOR: 'false' })).toBe(false);
    expect(useColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(useColor(true, { NO_COLOR: '' })).toBe(true);
    expect(useColor(true, { TERM: 'dumb' })).toBe(false);
    expect(useColor(false, {})).toBe(false);
    expect(useColor(true, {})).toBe(true);
  });
});

describe('one error vocabulary', () => {
  it('tsm errors are explained, usage errors are usage errors, bugs are neither', () => {
    expect(isExplained(new ConfigError('x'))).toBe(true);
    expect(isExplained(new UserError('x'))).toBe(true);
    expect(isUsageError(new UsageError('x'))).toBe(true);
    expect(isUsageError(new ConfigError('x'))).toBe(false);
    expect(isExplained(new TypeError('x'))).toBe(false);
    expect(isExplained('a string')).toBe(false);
  });

  it('an error from another bundle (another copy of the class) is recognised by its brand', () => {
    const foreign = Object.assign(new Error('from dist/lazy'), { [Symbol.for('tsm.explained-error')]: true, kind: 'usage' });
    expect(isExplained(foreign)).toBe(true);
    expect(isUsageError(foreign)).toBe(true);
  });
});

describe('hook.log lines', () => {
  it('escape every control character and line separator of every part', () => {
    const forged = 'x\n2026-01-01T00:00:00.000Z Stop session=evil: forged\r\u001b[31m\u2028\u0085';
    const line = formatLogLine(forged, forged, forged, new Date('2026-11-22T03:00:00Z'));
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(line).toContain('x\\n2026-01-01');
    expect(line).toContain('\\u001b[31m');
    expect(line).toContain(' session=x\\n2026-0: '); // 8 characters of the id, then escaped
  });

  it('oneLineEscape leaves ordinary text alone', () => {
    expect(oneLineEscape('LoRa モジュール 😀 "q"')).toBe('LoRa モジュール 😀 "q"');
    expect(oneLineEscape('\t\udc00')).toBe('\\t\\udc00');
  });

  it('oneLineEscape writes bidirectional overrides as escapes, so a logged value shows in its order', () => {
    expect(oneLineEscape('ok\u202e } \u2066x\u2069 \u200f')).toBe('ok\\u202e } \\u2066x\\u2069 \u200f');
  });
});

describe('prompt cap and deadline', () => {
  it('a prompt past MAX_PROMPT_CHARS keeps its head and tail, never half a surrogate pair', () => {
    const head = `question about LoRa ${'😀'.repeat(3000)}`;
    const prompt = `${head}${'x'.repeat(5_000_000)}follow-up: and the antenna?`;
    const capped = parseHookPayload(JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt })).prompt!;
    expect(capped.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS + 1);
    expect(capped.startsWith('question about LoRa')).toBe(true);
    expect(capped.endsWith('follow-up: and the antenna?')).toBe(true);
    expect(capped).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(parseHookPayload('{"prompt":"short"}').prompt).toBe('short');
  });

  it('race: work that ends in time wins; work that does not gives null after one onLate call', async () => {
    let late = 0;
    expect(await new Deadline(1000, performance.now(), () => performance.now()).race(Promise.resolve('ok'), () => late++)).toBe('ok');
    const never = new Promise<string>(() => {});
    const d = new Deadline(30, performance.now(), () => performance.now());
    expect(await d.race(never, () => late++)).toBeNull();
    expect(late).toBe(1);
  });

  it('shortenedBy keeps the configured deadline in messages and moves the end earlier (at most by half)', () => {
    let now = 0;
    const d = new Deadline(1500, 0, () => now).shortenedBy(100);
    expect(d.ms).toBe(1500);
    expect(d.remaining()).toBe(1400);
    now = 1400;
    expect(d.passed()).toBe(true);
    expect(new Deadline(60, 0, () => 0).shortenedBy(100).remaining()).toBe(30);
  });
});
