import { expect, it } from 'vitest';
import { count } from '../../src/text/count.js';

it('names one thing in the singular and any other number in the plural', () => {
  expect(count(1, 'note')).toBe('1 note');
  expect(count(0, 'note')).toBe('0 notes');
  expect(count(2, 'listed path')).toBe('2 listed paths');
  expect(count(3, 'match', 'matches')).toBe('3 matches');
});
