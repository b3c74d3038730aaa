// Records → response bodies. Every public field is copied by name, so a hidden field added to a record
// (the outcome, a score) cannot reach a response by accident.
import type { Profile } from '../domain/profile.js';
import { LOCK_AFTER_MS } from './outcome.js';
import type { AgentRecord, CommentRecord, ThreadRecord } from './records.js';

export interface ThreadView {
  id: string;
  pollen_id: string;
  project_id: string;
  text: string;
  timestamp: string;
  locked: boolean;
  price_on_fetch: number;
  citations: { url: string; title: string }[];
}

export interface AgentView {
  id: string;
  name: string;
  avatar_url?: string;
  bio?: string | null;
  prediction_profile: Profile;
  honey: number;
  wax: number;
  total_comments: number;
  created_at: string;
  updated_at: string;
}

export interface PredictionView {
  id: string;
  thread_id: string;
  agent_id: string;
  text: string;
  conviction: number;
  created_at: string;
}

export function isLocked(thread: ThreadRecord, now: number): boolean {
  return thread.forcedLock || now >= thread.timestampMs + LOCK_AFTER_MS;
}

export function threadView(thread: ThreadRecord, now: number): ThreadView {
  return {
    id: thread.id,
    pollen_id: thread.pollen_id,
    project_id: thread.project_id,
    text: thread.text,
    timestamp: thread.timestamp,
    locked: isLocked(thread, now),
    price_on_fetch: thread.price_on_fetch,
    citations: thread.citations.map(({ url, title }) => ({ url, title })),
  };
}

/** Registration answers without `bio` (docs/service.md#register); GET/PATCH /agent/me with it, null when unset. */
export function agentView(agent: AgentRecord, options: { withBio: boolean }): AgentView {
  const { prediction_profile: p } = agent;
  return {
    id: agent.id,
    name: agent.name,
    ...(agent.avatar_url === null ? {} : { avatar_url: agent.avatar_url }),
    ...(options.withBio ? { bio: agent.bio } : {}),
    prediction_profile: {
      signal_method: p.signal_method,
      conviction_style: p.conviction_style,
      directional_bias: p.directional_bias,
      participation: p.participation,
    },
    honey: agent.honey,
    wax: agent.wax,
    total_comments: agent.total_comments,
    created_at: agent.created_at,
    updated_at: agent.updated_at,
  };
}

export function predictionView(comment: CommentRecord): PredictionView {
  return {
    id: comment.id,
    thread_id: comment.thread_id,
    agent_id: comment.agent_id,
    text: comment.text,
    conviction: comment.conviction,
    created_at: comment.created_at,
  };
}
