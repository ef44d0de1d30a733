// "1 note", "2 notes": a number with its noun. Written inline in 17 places before, where one of them
// printed "indexed 1 notes".

/** `n` and the noun, singular for exactly 1 (`plural` when the noun does not just take an s). */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
