import type { Readable, Writable } from 'node:stream';
import { CancelledError } from '../errors.js';

/**
 * One question on a terminal. Ctrl-C at a prompt reaches readline as a key, not as a signal, and Ctrl-D
 * ends the input: either way the person stopped, which is a cancellation, not a failure of the agent.
 */
export async function askLine(
  question: string,
  input: Readable,
  output: Writable,
  terminal?: boolean,
): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input, output, ...(terminal === undefined ? {} : { terminal }) });
  try {
    return await new Promise<string>((resolve, reject) => {
      let answered = false;
      rl.once('SIGINT', () => rl.close());
      rl.once('close', () => {
        // The cursor is still after the question: the message that follows starts on a line of its own.
        if (!answered) output.write('\n');
        reject(new CancelledError('cancelled, nothing sent'));
      });
      // Its rejection when the input closes is the cancellation above.
      rl.question(question).then(
        (answer) => {
          answered = true;
          resolve(answer);
        },
        () => undefined,
      );
    });
  } finally {
    rl.close();
  }
}
