import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher.js';

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
