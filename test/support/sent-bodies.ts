/**
 * What the servers a test starts besides the service (a model, a webhook) received from the program: the
 * e2e harness looks for the key in each after the test (key-never-shown), so a server registers here once,
 * when it starts, and no test has to ask.
 */
const sources = new Set<() => string[]>();

export function receiving(bodies: () => string[]): void {
  sources.add(bodies);
}

/** Every body received since the last call; the servers are forgotten, as their test is over. */
export function takeReceived(): string[] {
  const all = [...sources].flatMap((bodies) => bodies());
  sources.clear();
  return all;
}
