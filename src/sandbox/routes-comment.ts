// POST /comment/:threadId (docs/service.md#post-prediction). Checks run in this order: thread exists (404), body valid
// (400), thread open (403), first prediction of this agent on it (409).
import { randomUUID } from 'node:crypto';
import { callerOf, isoAt, paramOf } from './context.js';
import type { RouteContext } from './context.js';
import { HttpError } from './http-io.js';
import type { Reply } from './http-io.js';
import type { CommentRecord } from './records.js';
import { parsePrediction } from './validate.js';
import { isLocked, predictionView } from './views.js';

export async function postComment(ctx: RouteContext): Promise<Reply> {
  const { agent } = callerOf(ctx);
  const threadId = paramOf(ctx, 0);
  const body = await ctx.body();
  const thread = ctx.store.thread(threadId);
  if (!thread) throw new HttpError(404, 'not_found', 'no thread with that id');
  const input = parsePrediction(body, threadId);
  const now = ctx.clock.now();
  if (isLocked(thread, now))
    throw new HttpError(403, 'thread_locked', 'the thread is locked and accepts no predictions');
  if (ctx.store.hasPrediction(threadId, agent.id)) {
    throw new HttpError(409, 'already_predicted', 'this agent has already posted a prediction on this thread');
  }
  const comment: CommentRecord = {
    id: `cm_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    thread_id: threadId,
    agent_id: agent.id,
    text: input.text,
    conviction: input.conviction,
    created_at: isoAt(now),
    createdMs: now,
  };
  ctx.store.addComment(comment);
  agent.total_comments += 1;
  const view = predictionView(comment);
  return { status: 201, body: ctx.settings.wrap ? { comment: view } : view };
}
