import type { LogoService } from '../../logo/logo.service';
import type { TaskDto } from '../dto/task.dto';
import { LogoTask } from './logo-task';
import type { TaskWork } from './task-kind';

const INPUT = { companyName: 'Acme', style: 'modern', colors: ['#0044ff'] };

/** A draw that the test settles by hand, in any order. */
interface Pending {
  resolve(): void;
  reject(error: Error): void;
}

function build(count: number, done = 0) {
  const pending: Pending[] = [];
  const logo = {
    generateImage: jest.fn(
      () =>
        new Promise((resolve, reject) => {
          pending.push({
            resolve: () =>
              resolve({
                bytes: Buffer.from('png'),
                type: { mediaType: 'image/png' },
                prompt: 'p',
                model: 'm',
              }),
            reject,
          });
        }),
    ),
  };
  const keep = jest.fn().mockResolvedValue(undefined);
  const work = {
    task: { id: 't', input: { ...INPUT, count } } as unknown as TaskDto,
    project: { id: 'p', name: 'Acme', description: null, userId: 'u' },
    signal: new AbortController().signal,
    clientKey: 'user:u',
    done,
    keep,
  } satisfies TaskWork;
  const task = new LogoTask(logo as unknown as LogoService);
  return { task, work, logo, keep, pending };
}

/** Lets the awaited callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('LogoTask', () => {
  it('keeps each image as soon as it is drawn, two draws at a time', async () => {
    const { task, work, keep, pending, logo } = build(3);
    const run = task.run(work);
    await settle();
    expect(logo.generateImage).toHaveBeenCalledTimes(2);
    pending[1].resolve();
    await settle();
    expect(keep).toHaveBeenCalledTimes(1);
    expect(keep).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'logo', contentType: 'image/png' }),
    );
    expect(logo.generateImage).toHaveBeenCalledTimes(3);
    pending[0].resolve();
    pending[2].resolve();
    await run;
    expect(keep).toHaveBeenCalledTimes(3);
  });

  it('a refused image starts no more draws; the one under way is finished and kept, then the task fails with the refusal', async () => {
    const { task, work, keep, pending, logo } = build(4);
    const run = task.run(work);
    const outcome = run.catch((error: unknown) => error);
    await settle();
    pending[1].reject(new Error('refused'));
    await settle();
    pending[0].resolve();
    await expect(outcome).resolves.toEqual(new Error('refused'));
    expect(keep).toHaveBeenCalledTimes(1);
    expect(logo.generateImage).toHaveBeenCalledTimes(2);
  });

  it('draws only the images an earlier attempt did not keep', async () => {
    const { task, work, keep, pending, logo } = build(3, 2);
    expect(task.resultsOf(work.task.input)).toBe(3);
    const run = task.run(work);
    await settle();
    expect(logo.generateImage).toHaveBeenCalledTimes(1);
    pending[0].resolve();
    await run;
    expect(keep).toHaveBeenCalledTimes(1);
  });
});
