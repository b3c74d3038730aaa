// Reading JSON requests and writing JSON responses, with the sandbox's error body
// `{"error": "<code>", "message": "<human text>"}` for every failure.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request bodies above this are refused with 413 before they are parsed. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function sendJson(res: ServerResponse, reply: Reply): void {
  const payload = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...reply.headers,
  });
  res.end(payload);
}

export function errorReply(error: HttpError): Reply {
  return { status: error.status, body: { error: error.code, message: error.message }, headers: error.headers };
}

/** The raw body as text; 415 unless it is declared JSON, 413 past `limit` bytes. */
export function readBodyText(req: IncomingMessage, limit: number): Promise<string> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    return Promise.reject(
      new HttpError(415, 'unsupported_media_type', 'request bodies must be JSON with Content-Type: application/json'),
    );
  }
  const tooLarge = () =>
    new HttpError(413, 'payload_too_large', `request body exceeds ${limit} bytes`, { connection: 'close' });
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return; // keep draining so that the 413 reaches the client
      size += chunk.length;
      if (size > limit) {
        refused = true;
        chunks.length = 0;
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/** A JSON object body; 400 for empty, malformed or non-object JSON. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === '') throw new HttpError(400, 'invalid_json', 'request body is empty; a JSON object is required');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_json', 'request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
