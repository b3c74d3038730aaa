// API keys: issued once, kept only as a sha256 hash, accepted only in the x-api-key header
// (docs/service.md#authentication: `Authorization: Bearer` is not a way in).
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-io.js';
import type { AgentRecord } from './records.js';
import type { SandboxStore } from './sandbox-store.js';

export const API_KEY_PREFIX = 'hive_';

/** `hive_` + 43 url-safe characters (32 random bytes). */
export function newApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export interface Caller {
  agent: AgentRecord;
  keyHash: string;
}

export function authenticate(store: SandboxStore, req: IncomingMessage): Caller {
  const key = req.headers['x-api-key'];
  if (typeof key !== 'string' || key === '') {
    const hint = req.headers.authorization === undefined ? '' : '; the Authorization header is not accepted';
    throw new HttpError(401, 'unauthorized', `missing API key: send it in the x-api-key header${hint}`);
  }
  const keyHash = hashKey(key);
  const agent = store.agentByKeyHash(keyHash);
  if (!agent) throw new HttpError(401, 'unauthorized', 'invalid API key');
  return { agent, keyHash };
}
