import type { Cursor } from '../domain/cursor.js';
import type * as z from 'zod/mini';
import type { Profile } from '../domain/profile.js';
import { cellOf, type Thread } from '../domain/thread.js';
import { LockedError, RejectedError, ResponseError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { pathSegment } from '../http/origin.js';
import {
  agentSchema,
  predictionSchema,
  registrationSchema,
  threadIdSchema,
  threadIdentitySchema,
  threadSchema,
  type Agent,
  type Prediction,
  type ThreadWire,
} from './schemas.js';
import { unwrapList, unwrapObject } from './unwrap.js';

export interface RegisterInput {
  name: string;
  bio?: string;
  avatar_url?: string;
  prediction_profile: Profile;
}

export interface AgentPatch {
  bio?: string;
  prediction_profile?: Profile;
}

/** A list element that names a thread but cannot be used: it is skipped with this reason. */
export interface MalformedThread {
  id: string;
  timestamp: string;
  reason: string;
}

/**
 * A list element with an id but no usable timestamp: it cannot be placed relative to the cursor, so it
 * can be neither handled nor skipped for good, only named.
 */
export interface UndatedThread {
  id: string;
  /** What the service sent instead, as JSON (undefined when there was none). */
  sent: string | undefined;
}

export interface ThreadPage {
  threads: Thread[];
  malformed: MalformedThread[];
  undated: UndatedThread[];
  /** Elements without even an id and timestamp: nothing can be done with them but count them. */
  unidentifiable: number;
  /** How many elements the service returned, to tell whether the page was full. */
  size: number;
}

export type PostResult = { status: 'posted'; prediction: Prediction | undefined } | { status: 'already' };

/** The interface (docs/service.md#endpoints) as typed calls. */
export function createServiceApi(http: HttpClient) {
  return {
    async register(input: RegisterInput) {
      try {
        const { json } = await http.call({ method: 'POST', path: ['agent', 'register'], body: input });
        const parsed = parse(registrationSchema(), unwrapObject(json, ['data'], 'api_key'), 'registration');
        const agent = agentSchema().safeParse(parsed.agent);
        // The key is kept whatever the agent object looks like; the name is the one we registered.
        return {
          agent: agent.success ? agent.data : { id: idOf(parsed.agent), name: input.name },
          apiKey: parsed.api_key,
        };
      } catch (error) {
        if (error instanceof RejectedError && error.status === 409) {
          throw new RejectedError(`the name ${JSON.stringify(input.name)} is already taken`, 409, {
            hint: 'choose another --name',
          });
        }
        throw error;
      }
    },

    async me(): Promise<Agent> {
      const { json } = await http.call({ method: 'GET', path: ['agent', 'me'] });
      return parse(agentSchema(), unwrapObject(json, ['agent']), 'agent');
    },

    /** The agent's prediction profile, which every analysis needs. */
    async profile(): Promise<Profile> {
      const profile = (await this.me()).prediction_profile;
      if (!profile)
        throw new ResponseError("the service did not return this agent's prediction profile", {
          hint: 'try again later',
        });
      return profile;
    },

    /** The response body is not specified (docs/service.md#update-agent): an agent if it is one, else undefined. */
    async updateMe(patch: AgentPatch): Promise<Agent | undefined> {
      const { json } = await http.call({ method: 'PATCH', path: ['agent', 'me'], body: patch });
      const result = agentSchema().safeParse(unwrapObject(json, ['agent']));
      return result.success ? result.data : undefined;
    },

    async threads(limit: number, cursor: Cursor | null): Promise<ThreadPage> {
      const query = { limit, timestamp: cursor?.timestamp, id: cursor?.id };
      let json: unknown;
      try {
        ({ json } = await http.call({ method: 'GET', path: ['thread'], query }));
      } catch (error) {
        // The interface names no largest limit, and a service that has one refuses a list asked with more
        // as invalid input: the user can only act on it by knowing it was the limit.
        if (error instanceof RejectedError && (error.status === 400 || error.status === 422)) {
          const said = error.said ? `: ${error.said}` : '';
          throw new RejectedError(
            `the service refused the limit ${limit} on the thread list (${error.status}${said})`,
            error.status,
            {
              hint: 'try a smaller --limit',
              said: error.said,
            },
          );
        }
        throw error;
      }
      const list = unwrapList(json, ['threads']);
      if (!list) throw new ResponseError(`the thread list is not a list (${describe(json)})`);
      const page: ThreadPage = { threads: [], malformed: [], undated: [], unidentifiable: 0, size: list.length };
      for (const element of list) {
        const full = threadSchema().safeParse(element);
        if (full.success && !isSendableId(full.data.id)) {
          // `..` or a lone surrogate cannot be put in a URL as one segment: no prediction can be sent.
          page.malformed.push({
            id: full.data.id,
            timestamp: full.data.timestamp,
            reason: 'its id cannot be sent back to the service as one path segment',
          });
          continue;
        }
        if (full.success) {
          page.threads.push(toThread(full.data));
          continue;
        }
        const identity = threadIdentitySchema().safeParse(element);
        // Only the identity: the rest of a loose, malformed element (any size, any content) goes no further.
        if (identity.success) {
          page.malformed.push({
            id: identity.data.id,
            timestamp: identity.data.timestamp,
            reason: `malformed thread (${firstIssue(full.error)})`,
          });
          continue;
        }
        const id = threadIdSchema().safeParse(element);
        if (id.success) page.undated.push({ id: id.data.id, sent: JSON.stringify(id.data.timestamp)?.slice(0, 80) });
        else page.unidentifiable += 1;
      }
      return page;
    },

    async thread(id: string): Promise<Thread> {
      try {
        const { json } = await http.call({ method: 'GET', path: ['thread', id] });
        return toThread(parse(threadSchema(), unwrapObject(json, ['thread']), 'thread'));
      } catch (error) {
        if (error instanceof RejectedError && error.status === 404) {
          throw new RejectedError(`no such thread: ${JSON.stringify(id)}`, 404, { hint: 'check the thread id' });
        }
        throw error;
      }
    },

    /** 409 means this agent already predicted on the thread: that is done, not a failure. */
    async predict(threadId: string, text: string, conviction: number): Promise<PostResult> {
      try {
        const { json } = await http.call({
          method: 'POST',
          path: ['comment', threadId],
          body: { text, thread_id: threadId, conviction },
        });
        const result = predictionSchema().safeParse(unwrapObject(json, ['comment', 'prediction']));
        // The POST succeeded whatever the body says; a body we cannot read must not cause a second post.
        return { status: 'posted', prediction: result.success ? result.data : undefined };
      } catch (error) {
        if (error instanceof RejectedError && error.status === 409) return { status: 'already' };
        if (error instanceof RejectedError && error.status === 403) throw lockedError(threadId);
        if (error instanceof RejectedError && error.status === 404) {
          throw new RejectedError(`no such thread: ${JSON.stringify(threadId)}`, 404, { hint: 'check the thread id' });
        }
        throw error;
      }
    },
  };
}

export type ServiceApi = ReturnType<typeof createServiceApi>;

export function lockedError(threadId: string): LockedError {
  return new LockedError(`thread ${JSON.stringify(threadId)} is locked: it accepts no new predictions`);
}

function idOf(agent: unknown): string {
  const id = typeof agent === 'object' && agent !== null ? (agent as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : 'unknown';
}

function isSendableId(id: string): boolean {
  try {
    pathSegment(id);
    return true;
  } catch {
    return false;
  }
}

function toThread(wire: ThreadWire): Thread {
  return {
    id: wire.id,
    projectId: wire.project_id,
    cell: cellOf(wire.project_id),
    text: wire.text,
    timestamp: wire.timestamp,
    locked: wire.locked,
    priceOnFetch: wire.price_on_fetch ?? undefined,
    citations: wire.citations.map((c) => ({ url: c.url, title: c.title })),
  };
}

function parse<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ResponseError(
    `the service's ${what} answer is not what the interface describes (${firstIssue(result.error)})`,
    {
      hint: 'try again later; if it persists the service may have changed',
    },
  );
}

function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.length ? issue.path.join('.') : 'body';
  return `${path}: ${issue.message}`;
}

function describe(json: unknown): string {
  if (json === undefined) return 'not JSON';
  if (Array.isArray(json)) return 'an array';
  return typeof json;
}
