import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/text/analyze.js';

describe('analyze', () => {
  it('keeps words that follow backticks, fences and other markup', () => {
    expect(analyze('``` > zqxanchor').words).toContain('zqxanchor');
    expect(analyze('```python\nprint(x)\n```').words).toContain('python');
    expect(analyze('## ``` foo').words).toContain('foo');
    expect(analyze('[[link|**bold**]] `code`').words.split(/\s+/).filter(Boolean)).toEqual(['link', 'bold', 'code']);
  });
  it('bigrams CJK runs and keeps Latin words apart', () => {
    expect(analyze('LoRaモジュール').cjk).toBe('モジ ジュ ュー ール');
    expect(analyze('LoRaモジュール').words.trim()).toBe('lora');
  });
});
