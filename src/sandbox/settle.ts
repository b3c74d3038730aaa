// Applies the scoring rule (scoring.ts) to a thread that has locked: each prediction gets its award once,
// and its agent's honey and wax grow by it.
import { sigmaOf } from './markets.js';
import type { ThreadRecord } from './records.js';
import { scorePrediction } from './scoring.js';
import type { SandboxStore } from './sandbox-store.js';

export function settleThread(store: SandboxStore, thread: ThreadRecord): void {
  if (thread.scored) return;
  const sigma = sigmaOf(thread.project_id);
  for (const comment of store.commentsOn(thread.id)) {
    const award = scorePrediction({
      conviction: comment.conviction,
      actualMovePct: thread.outcome.movePct,
      sigma,
      ageMs: comment.createdMs - thread.timestampMs,
    });
    comment.honey = award.honey;
    comment.wax = award.wax;
    const agent = store.agentById(comment.agent_id);
    if (agent) {
      agent.honey += award.honey;
      agent.wax += award.wax;
    }
  }
  thread.scored = true;
  store.touch();
}
