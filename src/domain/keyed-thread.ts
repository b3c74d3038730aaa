import { holdsKey } from './probe.js';
import type { Thread } from './thread.js';

/**
 * A thread that holds one of the agent's keys, in any form `KeyForms` reads (key-never-shown), is refused
 * whole: none of its fields can be used without the key going with it. The id goes into the URL and the
 * body of a post and into every file that names the thread, the cell into the post's text, the text and
 * citations to an analyzer (a model, a script) and into the record. A poll applies it as the page comes
 * in (nothing of the thread is analyzed, recorded or sent), and the skip rule (`skipByThread`,
 * src/posting/skip-rule.ts) before any analyzer, for poll, `predict` and `analyze` alike.
 */
export function refusalOf(
  thread: Pick<Thread, 'id' | 'projectId' | 'text' | 'citations'>,
  keys: readonly string[],
): string | undefined {
  const usable = keys.filter((key) => key.length >= 8);
  if (!usable.length) return undefined;
  const holds = (text: string | undefined) => text !== undefined && usable.some((key) => holdsKey(text, key));
  const field = holds(thread.id)
    ? 'id'
    : holds(thread.projectId)
      ? 'cell'
      : holds(thread.text)
        ? 'text'
        : thread.citations.some((c) => holds(c.url) || holds(c.title))
          ? 'citations'
          : undefined;
  return field && `refused: the thread's ${field} holds a key of this agent; nothing of it is read, written or sent`;
}
