// A synchronous call's result and its wall time: the linear-time tests measure what a test timeout cannot
// stop (a synchronous call runs to its end).
export function timed<T>(f: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = f();
  return { value, ms: performance.now() - start };
}

/**
 * How many times longer `work(n × times)` takes than `work(n)`: about `times` for linear work, about
 * `times²` for quadratic. Each is the best of `runs` calls, the two sizes alternating, so a busy machine
 * slows both alike and the ratio tells the algorithm where a wall-time bound tells the machine. `prepare`
 * builds a size's input outside the time; the larger size's last result is returned to check.
 */
export function growth<T>(prepare: (n: number) => () => T, n: number, times: number, runs = 3): { ratio: number; value: T } {
  const small = prepare(n);
  const large = prepare(n * times);
  let [a, b] = [Infinity, Infinity];
  let value!: T;
  for (let i = 0; i < runs; i++) {
    a = Math.min(a, timed(small).ms);
    const r = timed(large);
    b = Math.min(b, r.ms);
    value = r.value;
  }
  return { ratio: b / a, value };
}
