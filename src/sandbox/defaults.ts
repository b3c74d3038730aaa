/**
 * What `agent sandbox` uses for a flag not given: a lively feed, unlike the inert defaults of startSandbox.
 * Apart from the sandbox itself, so that the command's help shows them without loading it on every run.
 */
export const SANDBOX_CLI_DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  seed: 1,
  speed: 1,
  ratePerMinute: 1,
  backlog: 12,
  rateLimit: 0,
} as const;
