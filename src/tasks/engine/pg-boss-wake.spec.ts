import type { WipData } from 'pg-boss';
import { wakeBusyWorkers, type WorkerWaker } from './pg-boss-wake';

const worker = (id: string, workId: string, count: number) =>
  ({ id, workId, count, name: 'workspace-tasks' }) as WipData;

describe('wakeBusyWorkers', () => {
  it("wakes the work() call's workers that hold a job, and no other", () => {
    const notified: string[] = [];
    const boss: WorkerWaker = {
      getWipData: () => [
        worker('a', 'ours', 1),
        worker('b', 'ours', 0),
        worker('c', 'ours', 1),
        worker('d', 'theirs', 1),
      ],
      notifyWorker: (id: string) => void notified.push(id),
    };
    wakeBusyWorkers(boss, 'ours');
    expect(notified).toEqual(['a', 'c']);
  });

  it('an idle queue wakes nobody', () => {
    const notifyWorker = jest.fn();
    wakeBusyWorkers(
      { getWipData: () => [worker('a', 'ours', 0)], notifyWorker },
      'ours',
    );
    expect(notifyWorker).not.toHaveBeenCalled();
  });
});
