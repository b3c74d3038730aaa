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

/**
 * What each exit code means and what to do about it: the one table `agent --help`, `agent help exit-codes`
 * and the docs' exit-code tables are made from (docs/cli.md#exit-codes). `short` fits the --help line.
 */
export const EXIT_CODES: Record<ExitCode, { short: string; meaning: string; todo: string }> = {
  0: {
    short: 'ok (also nothing new, a skip)',
    meaning:
      'it worked; this includes nothing new, a deliberate skip, a 409 "already predicted", a poll that found another run busy (it leaves the work to that run), and a poll started inside a stored rate-limit pause (it sends nothing)',
    todo: 'nothing',
  },
  1: {
    short: 'unexpected',
    meaning:
      'unexpected: a bug; a state file that is corrupt, open to other users, or cannot be read or written (the lock file likewise); a redirect from the service; a poll in which the service refused a post with a 4xx other than 401, 403, 409 and 429 (that thread is given up); a clone not built yet; or a setup that cannot work: a host name that does not resolve, a TLS certificate not trusted here or not for that name, a model server that refuses the request itself (a 4xx)',
    todo: 'read the message; it names the file or the fix (`npm ci` for an unbuilt clone; the address given at registration; `NODE_EXTRA_CA_CERTS=<CA file>` for a service with a private CA; another model or `agent config set analyzer.fallback builtin`)',
  },
  2: {
    short: 'usage or invalid input, nothing sent',
    meaning:
      'usage error or invalid input, found before sending; also a 4xx the service answered for what was sent (name taken, no such thread, a value it refused, a page size above its maximum)',
    todo: 'fix the command',
  },
  3: {
    short: 'not registered or key rejected',
    meaning: 'no agent registered in this config dir, or the service rejected the key (401)',
    todo: '`agent register`; after a 401, `agent register --force` (the old state is kept as a backup)',
  },
  4: {
    short: 'thread locked',
    meaning: '`predict` on a locked thread (seen in the thread, or a 403 on the post)',
    todo: 'nothing: it no longer takes predictions',
  },
  5: {
    short: 'temporary, try again later',
    meaning:
      "temporary: network down, connection refused or reset, timeout (each read is tried 3 times, 15 s each), 408/5xx, a 429 that outlasted what the run could wait, an answer that could not be read, the run's time budget spent, an external analyzer that failed; a poll that left threads to retry or whose post outcome is unknown; `register` or `predict` finding another run busy; a run whose lock was taken over while it was stopped (it writes and sends nothing more)",
    todo: 'nothing, or try again in a moment',
  },
  130: {
    short: 'interrupted',
    meaning:
      'interrupted: Ctrl-C during any command, or Ctrl-C / Ctrl-D at a question (`register`, a size to confirm); SIGTERM gives 143',
    todo: 'nothing: what was finished is kept, nothing more was sent',
  },
};

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

/** What a thrown value says: an error's message, or anything else as text (a library may throw a string). */
export function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
