import type { WritableLike } from '../output/output.js';

/** What a bug report needs besides the version; process facts, so run-process.ts gathers them. */
export interface About {
  node: string;
  /** `linux-x64`: the platform and architecture, as Node's own downloads are named. */
  platform: string;
  /** The bundle's build id (its first line), null for a build that has none. */
  build: string | null;
  /** The installed package: the directory holding bin/ and dist/. */
  installPath: string;
}

/**
 * `--version` with `-v` (one per line) or `--json` (one document): the version, Node, the platform, the
 * build, where the program is installed and the config dir it would use (docs/cli.md). Plain `--version`
 * never comes here: its start-up cost is measured, and it loads nothing this needs (env-paths included).
 */
export function writeVersionDetails(
  out: WritableLike,
  details: About & { version: string; configDir: string },
  json: boolean,
): void {
  if (json) {
    const { version, node, platform, build, installPath, configDir } = details;
    out.write(`${JSON.stringify({ version, node, platform, build, installPath, configDir })}\n`);
    return;
  }
  const rows: Array<[string, string]> = [
    ['node', details.node],
    ['platform', details.platform],
    ['build', details.build ?? '(none)'],
    ['install path', details.installPath],
    ['config dir', details.configDir],
  ];
  out.write([details.version, ...rows.map(([name, value]) => `${name.padEnd(12)} ${value}`), ''].join('\n'));
}
