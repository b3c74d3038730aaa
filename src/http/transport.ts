import type { IncomingHttpHeaders } from 'node:http';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** One deadline for the whole exchange: connect, headers and the complete body. */
  timeoutMs: number;
  /** Bodies larger than this fail with a ResponseError instead of filling memory. */
  maxBodyBytes: number;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Sends one request and returns the answer as it came: no redirects followed, no status judged.
 * Production passes the node:http one; tests pass a fake or use nock.
 */
export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
  /** Lets the process exit at once instead of waiting for idle keep-alive sockets. */
  close(): void;
}
