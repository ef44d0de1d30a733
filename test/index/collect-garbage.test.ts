// collect-garbage.ts: a full collection on request, without Node's --expose-gc flag on the command line.
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/index/semantic/collect-garbage.js';

describe('collectGarbage', () => {
  it('collects an object nothing refers to any more', async () => {
    let ref: WeakRef<object> | undefined;
    (() => {
      ref = new WeakRef({ rows: new Array(10_000).fill(7) });
    })();
    // A WeakRef's target lives to the end of the job that made it.
    await new Promise((r) => setTimeout(r, 0));
    collectGarbage();
    expect(ref?.deref()).toBeUndefined();
    collectGarbage(); // and again, from the same function
  });
});
