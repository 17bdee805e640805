import { describe, expect, it } from 'vitest';
import { replanRound } from './pg-statements.js';

describe('replanRound', () => {
  it('starts a round at 5 s, then at each doubling of the age up to 2,560 s, then hourly', () => {
    const s = 1000;
    const starts = [0, 5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 2560 + 3600, 2560 + 7200];
    starts.forEach((at, round) => {
      expect(replanRound(at * s), `${at} s`).toBe(round);
      if (round > 0) expect(replanRound(at * s - 1), `just before ${at} s`).toBe(round - 1);
    });
  });
});
