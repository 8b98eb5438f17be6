import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { within } from '../../runtime/hosts/within.js';

describe('within', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("gives the promise's value and leaves no timer armed (a run must exit as soon as it is done)", async () => {
    const value = await within(Promise.resolve('ready'), 30_000);
    expect(value).toBe('ready');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears the timer when the promise rejects too', async () => {
    await expect(within(Promise.reject(new Error('client exited')), 30_000)).rejects.toThrow('client exited');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives undefined once the time has passed', async () => {
    const never = new Promise<string>(() => undefined);
    const result = within(never, 1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toBeUndefined();
  });
});
