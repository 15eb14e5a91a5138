import { ServiceBusyError } from '../../failures/retry-later.error';
import { BudgetExceededError } from '../../usage/budget-exceeded.error';
import { TURN_WAIT_MS, waitInLine } from './wait-in-line';

describe('waitInLine', () => {
  afterEach(() => jest.restoreAllMocks());

  it('calls again after Retry-After while the line is full', async () => {
    const call = jest
      .fn()
      .mockRejectedValueOnce(new ServiceBusyError('full', 1))
      .mockResolvedValueOnce('drawn');
    const started = Date.now();
    await expect(waitInLine(new AbortController().signal, call)).resolves.toBe(
      'drawn',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('fails at once over a spend budget', async () => {
    const over = new BudgetExceededError('over', 3600);
    const call = jest.fn().mockRejectedValue(over);
    await expect(waitInLine(new AbortController().signal, call)).rejects.toBe(
      over,
    );
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('fails at once on an error that is no turn in the line', async () => {
    const broken = new Error('broken');
    const call = jest.fn().mockRejectedValue(broken);
    await expect(waitInLine(new AbortController().signal, call)).rejects.toBe(
      broken,
    );
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('gives up busy once the turn wait is spent', async () => {
    const now = jest.spyOn(Date, 'now');
    // The wait starts at 0; the first try fails past the turn wait.
    now.mockReturnValueOnce(0).mockReturnValue(TURN_WAIT_MS + 1);
    const busy = new ServiceBusyError('full', 1);
    const call = jest.fn().mockRejectedValue(busy);
    await expect(waitInLine(new AbortController().signal, call)).rejects.toBe(
      busy,
    );
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('stops waiting when the task is cancelled', async () => {
    const controller = new AbortController();
    const call = jest.fn().mockRejectedValue(new ServiceBusyError('full', 60));
    const result = waitInLine(controller.signal, call);
    controller.abort();
    await expect(result).rejects.toThrow();
    expect(call).toHaveBeenCalledTimes(1);
  });
});
