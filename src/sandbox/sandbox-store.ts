// The sandbox's memory: agents, key hashes (never the keys), threads in (timestamp, id) order, predictions.
// It round-trips through JSON so that `agent sandbox --state <file>` survives a restart (state-file.ts).
import type { AgentRecord, CommentRecord, FeedPosition, ThreadRecord } from './records.js';

export interface StoreSnapshot {
  version: 1;
  agents: AgentRecord[];
  /** sha256(api key) in hex → agent id. */
  keys: Record<string, string>;
  threads: ThreadRecord[];
  comments: CommentRecord[];
  feed: FeedPosition;
}

/** The order of GET /thread: by creation time, ties broken by id (plain string comparison). */
export function compareThreads(
  a: Pick<ThreadRecord, 'timestampMs' | 'id'>,
  b: Pick<ThreadRecord, 'timestampMs' | 'id'>,
): number {
  if (a.timestampMs !== b.timestampMs) return a.timestampMs - b.timestampMs;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class SandboxStore {
  private readonly agents = new Map<string, AgentRecord>();
  private readonly keyHashes = new Map<string, string>();
  private readonly threadsById = new Map<string, ThreadRecord>();
  private readonly ordered: ThreadRecord[] = [];
  private readonly commentList: CommentRecord[] = [];
  private readonly predicted = new Set<string>();
  feed: FeedPosition = { nextIndex: 0, nextAtMs: null };
  /** Set by every change, cleared by whoever persists the store. */
  dirty = false;

  touch(): void {
    this.dirty = true;
  }

  addAgent(agent: AgentRecord, keyHash: string): void {
    this.agents.set(agent.id, agent);
    this.keyHashes.set(keyHash, agent.id);
    this.touch();
  }

  agentByKeyHash(keyHash: string): AgentRecord | undefined {
    const id = this.keyHashes.get(keyHash);
    return id === undefined ? undefined : this.agents.get(id);
  }

  agentById(id: string): AgentRecord | undefined {
    return this.agents.get(id);
  }

  /** Names are unique regardless of case, as most services treat them. */
  nameTaken(name: string): boolean {
    const wanted = name.toLowerCase();
    for (const agent of this.agents.values()) if (agent.name.toLowerCase() === wanted) return true;
    return false;
  }

  addThread(thread: ThreadRecord): void {
    if (this.threadsById.has(thread.id)) throw new Error(`thread ${thread.id} already exists`);
    this.threadsById.set(thread.id, thread);
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const probe = this.ordered[mid];
      if (probe && compareThreads(probe, thread) < 0) low = mid + 1;
      else high = mid;
    }
    this.ordered.splice(low, 0, thread);
    this.touch();
  }

  thread(id: string): ThreadRecord | undefined {
    return this.threadsById.get(id);
  }

  /** All threads, oldest first. */
  threads(): readonly ThreadRecord[] {
    return this.ordered;
  }

  addComment(comment: CommentRecord): void {
    this.commentList.push(comment);
    this.predicted.add(predictionKey(comment.thread_id, comment.agent_id));
    this.touch();
  }

  hasPrediction(threadId: string, agentId: string): boolean {
    return this.predicted.has(predictionKey(threadId, agentId));
  }

  commentsOn(threadId: string): CommentRecord[] {
    return this.commentList.filter((comment) => comment.thread_id === threadId);
  }

  comments(): readonly CommentRecord[] {
    return this.commentList;
  }

  toJSON(): StoreSnapshot {
    return {
      version: 1,
      agents: [...this.agents.values()],
      keys: Object.fromEntries(this.keyHashes),
      threads: [...this.ordered],
      comments: [...this.commentList],
      feed: { ...this.feed },
    };
  }

  static fromJSON(data: unknown): SandboxStore {
    if (!isSnapshot(data))
      throw new Error('not a sandbox state file (expected version 1 with agents, keys, threads, comments)');
    const store = new SandboxStore();
    for (const agent of data.agents) store.agents.set(agent.id, agent);
    for (const [hash, id] of Object.entries(data.keys)) store.keyHashes.set(hash, id);
    for (const thread of data.threads) store.addThread(thread);
    for (const comment of data.comments) store.addComment(comment);
    store.feed = { nextIndex: data.feed?.nextIndex ?? 0, nextAtMs: data.feed?.nextAtMs ?? null };
    store.dirty = false;
    return store;
  }
}

function predictionKey(threadId: string, agentId: string): string {
  return `${threadId}\n${agentId}`;
}

function isSnapshot(data: unknown): data is StoreSnapshot {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return (
    d.version === 1 &&
    Array.isArray(d.agents) &&
    typeof d.keys === 'object' &&
    d.keys !== null &&
    Array.isArray(d.threads) &&
    Array.isArray(d.comments)
  );
}
