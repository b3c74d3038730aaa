// A small error hierarchy: every failure the user can meet is one of these, and each knows its exit
// code (docs/cli.md). Messages are one line and never contain the API key: errors are built
// from our own words plus sanitised server text, never from request headers.

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  notRegistered: 3,
  locked: 4,
  temporary: 5,
  /** Stopped by the user (Ctrl-C, or Ctrl-D at a question): 128 + SIGINT, as a shell reports it. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export abstract class AgentError extends Error {
  abstract readonly exitCode: ExitCode;
  /** What the user can do about it, shown after the message. */
  readonly hint: string | undefined;

  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }
}

/** Bad flags or input: nothing was sent. */
export class UsageError extends AgentError {
  readonly exitCode = EXIT.usage;
}

/** The service refused what we sent as invalid (400/422, 409 name taken, 404 unknown thread). */
export class RejectedError extends AgentError {
  readonly exitCode = EXIT.usage;
  /** The service's own words, sanitised, when its answer had any: a caller that rewords the error keeps them. */
  readonly said: string | undefined;
  constructor(
    message: string,
    readonly status: number,
    options: { hint?: string; said?: string } = {},
  ) {
    super(message, options);
    this.said = options.said;
  }
}

/** The person at the terminal stopped the command (Ctrl-C or Ctrl-D at a question, Ctrl-C during a run). */
export class CancelledError extends AgentError {
  readonly exitCode = EXIT.interrupted;
}

export class NotRegisteredError extends AgentError {
  readonly exitCode = EXIT.notRegistered;
}

/** 401: the key is missing, wrong or revoked. */
export class AuthError extends AgentError {
  readonly exitCode = EXIT.notRegistered;
}

/** 403 on a prediction: the thread no longer accepts predictions. */
export class LockedError extends AgentError {
  readonly exitCode = EXIT.locked;
}

/** Worth trying again later: network, timeout, 5xx, rate limit beyond the back-off, run budget. */
export class TemporaryError extends AgentError {
  readonly exitCode = EXIT.temporary;
}

export class NetworkError extends TemporaryError {
  /** True when the request certainly never reached the server (e.g. connection refused). */
  constructor(
    message: string,
    readonly notSent: boolean,
    options: { hint?: string; cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

export class TimeoutError extends TemporaryError {
  /** How long this one request waited, when it was a request that timed out (not the run's budget). */
  readonly waitedMs: number | undefined;
  /** True when the request was not completely sent when time ran out, so it cannot have been processed. */
  constructor(
    message: string,
    readonly notSent = false,
    options: { hint?: string; cause?: unknown; waitedMs?: number } = {},
  ) {
    super(message, options);
    this.waitedMs = options.waitedMs;
  }
}

/** The command's time budget (bounded) is spent: nothing more is sent this run; what is left stays due. */
export class BudgetError extends TimeoutError {
  constructor() {
    super('the run used up its time budget', true, { hint: 'the next run continues where this one stopped' });
  }
}

/**
 * The service's address cannot work as it is set up, so trying again later will not help: its host name
 * does not resolve, or its TLS certificate is not trusted here or is not for that name. Nothing was sent.
 */
export class ConnectionSetupError extends AgentError {
  readonly exitCode = EXIT.unexpected;
}

export class ServerError extends TemporaryError {
  constructor(
    message: string,
    readonly status: number,
    options: { hint?: string } = {},
  ) {
    super(message, options);
  }
}

export class RateLimitedError extends TemporaryError {
  constructor(
    message: string,
    /** Epoch ms before which no request may be sent to the service. */
    readonly until: number,
    options: { hint?: string } = {},
  ) {
    super(message, options);
  }
}

/** A 2xx answer that does not have what the client needs (wrong shape, not JSON, too large). */
export class ResponseError extends TemporaryError {}

/** A redirect: never followed, because the key must not travel to another address. */
export class RedirectError extends AgentError {
  readonly exitCode = EXIT.unexpected;
  constructor(
    message: string,
    readonly status: number,
    options: { hint?: string } = {},
  ) {
    super(message, options);
  }
}

/** The state file or its directory is unreadable, corrupt, or open to other users. */
export class StateError extends AgentError {
  readonly exitCode = EXIT.unexpected;
  constructor(
    message: string,
    /**
     * corrupt: unreadable content (never "start over": state-intact); exposed: modes open to others
     * (key-at-rest); io: the file system failed; foreign: the dir or file belongs to another user than the one
     * running.
     */
    readonly reason: 'corrupt' | 'exposed' | 'io' | 'foreign',
    options: { hint?: string; cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/**
 * An analyzer other than the built-in one failed on a thread: it timed out, crashed, or answered with
 * something that is not a valid signal or decision. Nothing is posted; the thread stays due (or, if the
 * user chose it, the built-in analyzer decides instead).
 */
export class AnalyzerError extends TemporaryError {}

/**
 * The analyzer cannot work as configured, whatever the thread: a model server refused the request itself
 * (a 4xx other than 408/429: a model it cannot serve this way, an unknown model, a rejected key). No thread
 * is to blame, so none spends a try on it; the run stops and says what to change.
 */
export class AnalyzerConfigError extends AgentError {
  readonly exitCode = EXIT.unexpected;
}

/** Something on this machine that the command needs is missing or refused (no crontab, no user systemd). */
export class SetupError extends AgentError {
  readonly exitCode = EXIT.unexpected;
}

/** Another run holds the lock on the config dir: nothing was done, try again in a moment. */
export class BusyError extends TemporaryError {}

/**
 * This run's lock was taken over (it was stopped or stuck past the lock's age limit): it writes and sends
 * nothing more, since the run that took over may have changed the state meanwhile (one-writer).
 */
export class LockLostError extends TemporaryError {}

/**
 * After a POST failed this way, it may still have reached the service and been stored: no answer came
 * back (timeout, connection lost after sending), the answer could not be read, or it was a 303. Such a
 * post is never sent again (never-twice). 4xx, 401, 429, the service's own 5xx and refused connections mean it
 * did not land.
 */
export function mayHaveLanded(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof TimeoutError) return !error.notSent;
  // A gateway's 502/504 can come after the service behind it stored the prediction.
  if (error instanceof ServerError) return error.status === 502 || error.status === 504;
  // 303 See Other is how a server answers a POST it has processed (RFC 9110, 15.4.4); the other
  // redirects say the request was not handled here.
  if (error instanceof RedirectError) return error.status === 303;
  return error instanceof ResponseError;
}
