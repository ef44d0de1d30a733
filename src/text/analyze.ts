// Index-side analysis: what goes into the FTS columns for a piece of text.
import { bigrams, cjkRuns, normalize, stripCjk } from './normalize.js';

export interface AnalyzedText {
  /** Normalised text with CJK runs removed; FTS5's unicode61 (+porter) tokenizer cuts it into words. */
  words: string;
  /** Space-separated CJK bigrams of every CJK run. */
  cjk: string;
}

/**
 * Markdown punctuation that carries no words: stripped before tokenising. Only punctuation goes: the words
 * after a fence (```python) or after backticks that open a heading path stay searchable.
 */
const MARKUP = /[*_~`>|]+|\[\[|\]\]|!\[|\]\(|\)|\[|\]/g;

export function analyze(text: string): AnalyzedText {
  const norm = normalize(text).replace(MARKUP, ' ');
  const runs = cjkRuns(norm);
  let cjk = '';
  for (const run of runs) {
    const grams = bigrams(run);
    cjk += (cjk ? ' ' : '') + grams.join(' ');
  }
  return { words: runs.length ? stripCjk(norm) : norm, cjk };
}
