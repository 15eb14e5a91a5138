import { Test } from '@nestjs/testing';
import { TaskEngine } from './engine/task-engine';
import { TaskRunner } from './task-runner';
import { TaskWorkers } from './task-workers';
import { tasksConfig, type ProcessRole } from './tasks.config';

async function build(role: ProcessRole) {
  const engine = {
    startWorkers: jest.fn().mockResolvedValue(undefined),
    stop: jest.fn().mockResolvedValue(undefined),
  };
  const runner = { handle: jest.fn() };
  const moduleRef = await Test.createTestingModule({
    providers: [
      TaskWorkers,
      { provide: TaskEngine, useValue: engine },
      { provide: TaskRunner, useValue: runner },
      {
        provide: tasksConfig.KEY,
        useValue: { ...tasksConfig({}), role, concurrency: 3 },
      },
    ],
  }).compile();
  return { workers: moduleRef.get(TaskWorkers), engine, runner };
}

describe('TaskWorkers', () => {
  it("starts the runner's workers once the app is up, TASK_CONCURRENCY at once", async () => {
    for (const role of ['all', 'worker'] as const) {
      const { workers, engine, runner } = await build(role);
      await workers.onApplicationBootstrap();
      expect(engine.startWorkers).toHaveBeenCalledWith(runner.handle, 3);
    }
  });

  it('a process that only serves the API runs no task', async () => {
    const { workers, engine } = await build('api');
    await workers.onApplicationBootstrap();
    expect(engine.startWorkers).not.toHaveBeenCalled();
  });

  it('stops the engine (its tasks in hand given back) before the app shuts down', async () => {
    const { workers, engine } = await build('worker');
    await workers.beforeApplicationShutdown();
    expect(engine.stop).toHaveBeenCalledTimes(1);
  });
});
