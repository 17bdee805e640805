import { describe, expect, it } from 'vitest';
import { createBatcher, createTurnBatcher } from './batcher.js';
import { afterThisTask } from './request-slices.js';

describe('createBatcher', () => {
  it('runs a lone item at once, then what arrived meanwhile together, each getting its own result', async () => {
    const runs: number[][] = [];
    let release: () => void = () => {};
    const batcher = createBatcher(async (items: number[]) => {
      runs.push(items);
      if (runs.length === 1) await new Promise<void>((r) => (release = r));
      return items.map((n) => n * 10);
    });
    const first = batcher.add(1);
    const rest = [batcher.add(2), batcher.add(3), batcher.add(4)];
    expect(runs).toEqual([[1]]);
    release();
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(runs).toEqual([[1], [2, 3, 4]]);
  });

  it('caps a run at maxBatch and keeps the order', async () => {
    const runs: number[][] = [];
    const batcher = createBatcher(async (items: number[]) => {
      runs.push(items);
      await Promise.resolve();
      return items;
    }, 2);
    const all = [1, 2, 3, 4, 5].map((n) => batcher.add(n));
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
    expect(runs).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('rejects the items of a run that failed, and goes on with the next', async () => {
    let calls = 0;
    const batcher = createBatcher(async (items: string[]) => {
      calls += 1;
      if (calls === 1) {
        await Promise.resolve();
        throw new Error('database is locked');
      }
      return items.map((s) => s.toUpperCase());
    });
    const failed = batcher.add('a');
    const next = batcher.add('b');
    await expect(failed).rejects.toThrow('database is locked');
    expect(await next).toBe('B');
  });
});

describe('createTurnBatcher', () => {
  it('runs what arrived in one turn together, each getting its own result, the next turn apart', async () => {
    const runs: number[][] = [];
    const batcher = createTurnBatcher(async (items: number[]) => {
      runs.push(items);
      return items.map((n) => n * 10);
    });
    const first = [1, 2, 3].map((n) => batcher.add(n));
    expect(runs).toEqual([]); // nothing before the end of the turn
    expect(await Promise.all(first)).toEqual([10, 20, 30]);
    expect(await batcher.add(4)).toBe(40);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('starts a batch while an earlier one is still on its way, and at maxBatch at once', async () => {
    const runs: number[][] = [];
    let release: () => void = () => {};
    const batcher = createTurnBatcher(async (items: number[]) => {
      runs.push(items);
      if (runs.length === 1) await new Promise<void>((r) => (release = r));
      return items;
    }, 2);
    const a = [batcher.add(1), batcher.add(2)]; // full: runs at once, and hangs
    expect(runs).toEqual([[1, 2]]);
    const b = batcher.add(3);
    expect(await b).toBe(3); // not held behind the first batch
    release();
    expect(await Promise.all(a)).toEqual([1, 2]);
    expect(runs).toEqual([[1, 2], [3]]);
  });

  it('runs a batch that throws again one item at a time: only the item that fails alone fails', async () => {
    const runs: number[][] = [];
    const batcher = createTurnBatcher(async (items: number[]) => {
      runs.push(items);
      if (items.includes(2)) throw new Error(`boom ${items.join()}`);
      return items;
    });
    const [one, two, three] = [batcher.add(1), batcher.add(2), batcher.add(3)];
    await expect(two).rejects.toThrow('boom 2');
    expect(await one).toBe(1);
    expect(await three).toBe(3);
    expect(runs).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(await batcher.add(4)).toBe(4);
  });

  it('sendEarly afterThisTask: what one task adds, its promises included, leaves before the turn ends; another task apart', async () => {
    const runs: number[][] = [];
    const batcher = createTurnBatcher(
      async (items: number[]) => {
        runs.push(items);
        return items;
      },
      100,
      afterThisTask,
    );
    let atTurnEnd: number[][] = [];
    setImmediate(() => {
      atTurnEnd = runs.map((r) => [...r]);
    });
    const first = [batcher.add(1)];
    await Promise.resolve(); // the same task, a microtask later
    first.push(batcher.add(2));
    expect(runs).toEqual([]); // not while the task runs
    expect(await Promise.all(first)).toEqual([1, 2]);
    await new Promise((r) => setImmediate(r));
    expect(atTurnEnd).toEqual([[1, 2]]); // left before the turn's end

    // Two timers of one turn are two tasks: two batches (the turn's end would have joined them).
    const later = await new Promise<Array<Promise<number>>>((resolve) => {
      const adds: Array<Promise<number>> = [];
      setTimeout(() => adds.push(batcher.add(3)), 0);
      setTimeout(() => {
        adds.push(batcher.add(4));
        resolve(adds);
      }, 0);
    });
    expect(await Promise.all(later)).toEqual([3, 4]);
    expect(runs).toEqual([[1, 2], [3], [4]]);
  });

  it('batchNow names the batch an item added now goes in: the same until that batch leaves', async () => {
    const batcher = createTurnBatcher(async (items: number[]) => items, 3);
    const first = batcher.batchNow();
    const a = [batcher.add(1), batcher.add(2)];
    expect(batcher.batchNow()).toBe(first); // still waiting for the end of the turn
    a.push(batcher.add(3)); // full: it leaves at once
    expect(batcher.batchNow()).toBe(first + 1);
    await Promise.all(a);
    const b = batcher.add(4);
    expect(batcher.batchNow()).toBe(first + 1);
    await b; // the end of the turn took it
    expect(batcher.batchNow()).toBe(first + 2);
  });
});
