import { ANALYZER_KINDS } from '../../analysis/types.js';
import { DEFAULT_SIGMA, PROFILE_NUMBERS, sigmaOf } from '../../analysis/profile-numbers.js';
import { EXIT_CODES, type ExitCode } from '../../errors.js';
import { SETTINGS_HEAD, settingsRows } from '../../settings/reference.js';
import { DOCTOR_CHECKS } from '../doctor-checks.js';
import type { TopicName } from '../topics.js';
import type { Block, Table } from './blocks.js';

// The text of each help topic: the one place its facts are written. `agent help <topic>` prints it, and
// the docs include it between `<!-- generated: topic <name> -->` markers (`npm run docs` rewrites them).

export const TOPIC_TEXT: Record<TopicName, () => Block[]> = {
  'exit-codes': exitCodes,
  environment,
  settings,
  files,
  cron,
  alerts,
  record,
  analyzer,
};

export function exitCodes(): Block[] {
  return [
    {
      p: 'Every command ends with one of these codes, which cron mail and scripts may rely on. With `--json`, a failure prints `{"error": {"code": <exit code>, "message": "..."}}` on stdout; the message also goes to stderr, one line with a hint (`--verbose` adds the stack trace of an unexpected error, never of an expected one).',
    },
    exitCodeTable(),
  ];
}

/** The exit codes as one table, from src/errors.ts. */
export function exitCodeTable(): Table {
  const codes = Object.keys(EXIT_CODES).map((code) => Number(code) as ExitCode);
  return {
    table: {
      head: ['code', 'meaning', 'what to do'],
      rows: codes.map((code) => [String(code), EXIT_CODES[code].meaning, EXIT_CODES[code].todo]),
    },
  };
}

/** Every variable the program reads, and what it does: test/commands/help/topics.test.ts checks src/ reads no other. */
export const ENVIRONMENT: ReadonlyArray<readonly [name: string, what: string]> = [
  ['AGENT_CONFIG_DIR', 'the config dir, as `--config-dir` (refused beside `--agent`, which names another)'],
  [
    'AGENT_BASE_URL',
    "the service's address, as `--base-url`: `register` stores it; later commands refuse a different one rather than send the key elsewhere",
  ],
  ['AGENT_ANALYZER', 'the analyzer for this run (`builtin`, `command` or `llm`), over the `analyzer` setting'],
  ['AGENT_ANALYZER_COMMAND', 'the command analyzer for this run, over `analyzer.command`'],
  ['AGENT_LLM_BASE_URL', "the model server's address for this run, over `llm.base-url`"],
  ['AGENT_LLM_MODEL', 'the model for this run, over `llm.model`'],
  [
    'AGENT_LLM_API_KEY',
    "the model's key for a run by hand, over `llm.key-file`: never stored, never printed, never given to a command analyzer",
  ],
  [
    'HTTPS_PROXY, https_proxy, NO_PROXY, no_proxy',
    'the proxy for an https service and a model (the key travels inside the encrypted tunnel); hosts in `NO_PROXY` and loopback go direct; the proxy address is never printed',
  ],
  [
    'NODE_TLS_REJECT_UNAUTHORIZED',
    '`0` turns TLS checks off: every command that would send the key, and `register`, then refuses to run (exit 2)',
  ],
  ['NODE_EXTRA_CA_CERTS', 'read by Node: a CA file, for a service or model server with a private CA'],
  [
    'XDG_CONFIG_HOME',
    'where the default config dir is: `$XDG_CONFIG_HOME/prediction-agent`, else `~/.config/prediction-agent` (`~/Library/Preferences/prediction-agent` on macOS); and where `schedule --systemd` writes its units (`$XDG_CONFIG_HOME/systemd/user`)',
  ],
  [
    'HOME',
    'your home directory: a path given to `--config-dir`, `AGENT_CONFIG_DIR`, `schedule --log` or `llm.key-file` may start with `~/`, also where no shell expands it',
  ],
  ['NO_COLOR', 'set: no colour at a terminal'],
];

function environment(): Block[] {
  return [
    {
      p: 'Cron runs with almost none of these (`PATH=/usr/bin:/bin`, your `HOME`): `agent schedule` writes the config dir into the crontab line, and a proxy belongs in the line itself (`*/5 * * * * HTTPS_PROXY=http://proxy.example:3128 /usr/bin/node ...`).',
    },
    { table: { head: ['variable', 'what it does'], rows: ENVIRONMENT.map(([name, what]) => [`\`${name}\``, what]) } },
  ];
}

/** The settings as a table, read from the settings table (src/settings/table.ts). */
export function settingsTable(): Table {
  return { table: { head: SETTINGS_HEAD, rows: settingsRows() } };
}

function settings(): Block[] {
  return [
    {
      p: '`agent config get` shows every setting with its default and any env override in effect; `agent config set <setting> <value>` checks a value before storing it in `<config dir>/config.json` (mode 600, never the service key); `agent config unset <setting>` brings the default back. A flag (`--analyzer`, on `analyze` and `backtest`) beats the env var, which beats config.json.',
    },
    settingsTable(),
    {
      p: "The analyzer is switched last: `config set analyzer command` is refused until `analyzer.command` is set, and `analyzer llm` until `llm.base-url` and `llm.model` are, since every poll, cron's too, would fail in between. The alert URLs must be https (plain http only to this machine), and a model's key is never sent over plain http but to this machine.",
    },
  ];
}

function files(): Block[] {
  return [
    {
      p: 'The config dir is `~/.config/prediction-agent` (`$XDG_CONFIG_HOME/prediction-agent`; `~/Library/Preferences/prediction-agent` on macOS), or `--config-dir`, or `<default config dir>/agents/<name>` for `--agent <name>`. It is created mode 700 and every file in it mode 600: the state and the settings written whole (a temp file renamed into place), the history and the record appended a line at a time. A dir or state file open to other users, or owned by another user, is refused with the command that fixes it.',
    },
    {
      table: {
        head: ['file', 'what it holds'],
        rows: [
          [
            '`state.json`',
            "THE API KEY, which is the agent; the agent's name, the address the key belongs to, the cursor, a journal of recent threads, a pending rate-limit pause. Lose it and the agent is gone for good",
          ],
          ['`state.<time>.bak.json`', "an older agent's state, kept by `register --force`: its key too"],
          [
            '`history.jsonl`, `history.1.jsonl`',
            'what each run did (posts, skips, failures, one summary a run): the only copy, read by `agent history` and `agent stats`; the first becomes the second past 4 MiB',
          ],
          [
            '`prices.jsonl`, `threads.jsonl`, `outcomes.jsonl` (and `.1.jsonl`)',
            'the record: the prices and texts the polls read, and what each post did; no key',
          ],
          [
            '`config.json`',
            "the settings (`agent help settings`): no service key, but an alert webhook's URL, a secret of its own",
          ],
          ['`alerts.json`', 'which alerts were sent, so that each goes out once'],
          ['`poll.log`, `poll.log.1`', 'what the scheduled polls said; the first becomes the second past 1 MiB'],
          [
            '`lock`, `watch`, `watch-aside`, `poll.log.rotating`, `.tmp` files',
            'only while a run is busy, or a `poll --watch` runs (or has set this agent aside)',
          ],
        ],
      },
    },
    {
      p: "`rm -rf ~/.config/prediction-agent` removes everything the program wrote, the key included: do it only for an agent you will never use again, or copy `state.json` somewhere private (mode 600) first. A model's key file (`llm.key-file`) and shell completion files are outside the config dir, yours to remove.",
    },
  ];
}

/** The checks of `agent doctor`, in the order it runs them (src/commands/doctor-checks.ts). */
export function doctorChecks(): Table {
  return {
    table: {
      head: ['check', 'what it looks at'],
      rows: DOCTOR_CHECKS.map(({ name, looksAt }) => [`\`${name}\``, looksAt]),
    },
  };
}

function cron(): Block[] {
  return [
    {
      p: '`agent poll` is meant to run every 5 minutes: early predictions earn more. One command puts it in your crontab:',
    },
    {
      code: [
        'agent schedule                 # the line it would add, and whether one is there',
        'agent schedule --install       # adds it: agent poll every 5 minutes (--every <minutes>, 1-59)',
        'agent doctor                   # checks everything a cron poll needs, each problem with its fix',
        'agent schedule --remove        # takes it out; every other line of your crontab stays as it was',
      ],
    },
    {
      p: 'The line names node and this command by absolute path and passes this config dir, since cron runs with almost no environment. It runs `agent poll --log <config dir>/poll.log`: the poll appends what it has to say to that file itself, each line after its time, in a file created mode 600, moved to `poll.log.1` past 1 MiB; so cron mails nothing: read the log. Installing again (after a Node upgrade, say) replaces the entry, never adds a second one for the same config dir. Without cron, `agent schedule --systemd --install` writes a user service and timer instead (its output goes to the journal), and `--systemd` alone prints them.',
    },
    {
      p: 'Where there is no cron (a container), or five minutes is too long to wait, one resident process does the same: `agent poll --watch --interval 60` (Ctrl-C or SIGTERM stop it, exit 0). While it runs, a cron poll on the same config dir leaves the work to it, and takes the work back should the watcher stop polling. `agent poll --watch --all` polls every registered agent of yours in turn.',
    },
    { p: '`agent doctor` checks, one line each with its fix, exit 1 when one fails:' },
    doctorChecks(),
  ];
}

function alerts(): Block[] {
  return [
    {
      p: 'A poll under cron is silent when all is well. Set an alert route and the poll tells you when its state changes: each alert is sent once when the condition begins, never again every run while it lasts.',
    },
    {
      code: [
        'agent config set alert.webhook https://hooks.slack.com/services/T000/B000/XXXX   # one POST per alert',
        'agent config set alert.command "/usr/bin/node /home/me/alert.mjs"                # the event on its stdin',
        'agent config set alert.heartbeat https://hc-ping.com/<uuid>                      # one GET per good poll',
        'agent alert test      # a test event through every route set: what each answered',
        'agent doctor          # the routes set, and the last alert sent with what each route answered',
      ],
    },
    {
      table: {
        head: ['event', 'sent when', 'again'],
        rows: [
          [
            '`failing`',
            '3 polls in a row failed for a temporary reason (network, 5xx, rate limit), or at once for one that will not pass by itself: a rejected key (exit 3), a broken state or config (exit 1, also no agent registered or a `state.json` that cannot be trusted), a usage error (exit 2)',
            'after `recovered`',
          ],
          [
            '`recovered`',
            'the first good poll once no poll has failed for 30 minutes and the `failing` is an hour old: a service that fails every other poll keeps one `failing` open, so flapping costs one pair an hour at most',
            'with the next `failing`',
          ],
          [
            '`quiet`',
            'threads came for 24 h and none was posted: the analyzer skipped them all (the event names the top skip reasons)',
            'after the next post',
          ],
          [
            '`paused`',
            "the service asked for a pause longer than 10 minutes (a 429's `Retry-After`)",
            'once per pause',
          ],
          ['`test`', '`agent alert test`', 'each time'],
        ],
      },
    },
    {
      p: 'Every route gets the same JSON object (the command on its stdin, one line; the webhook as one POST): `kind`, `agent` (its name on the service), `configDir`, `since` (when the condition began), `detail`, `hint` and `text` (one line for a person, which Slack and Mattermost webhooks show as it is). The event never holds the key. Each route has 5 seconds; one that fails never fails the poll: it is a line in the log, an `alert` line in `agent history` and a warning in `agent doctor`.',
    },
    {
      p: "An agent that stops running cannot alert about itself: `alert.heartbeat` is pinged after each good poll, and a service of the healthchecks kind alerts you when the pings stop. Set its period to the poll's interval and a grace of a few intervals.",
    },
  ];
}

function record(): Block[] {
  return [
    {
      code: [
        'agent history                  # newest first: posts (with what their cell then did), skips, failures, runs',
        'agent history --since 12h --limit 20',
        'agent stats                    # the last 7 days: posts, skips by reason, cells, counters, the record',
        'agent backtest --recorded      # the threads this agent read, replayed through an analyzer and a profile',
      ],
    },
    {
      p: "Every `poll` and `predict` (not a dry run) appends what it did to `history.jsonl` in the config dir: each post, each skip with its reason, each failure, one summary per run, and once an hour the service's honey, wax and prediction count. It is the only copy: the service keeps no such record for you.",
    },
    {
      p: "The record is the agent's own reading of each post's outcome, with no extra request: every thread carries its cell's price when it was created, so the threads a poll reads are a price series (`prices.jsonl`). A post is resolved once that series has its cell's price 3 hours after the post's thread: right when the move's sign is the conviction's, flat under 0.05% either way, shown as `+0.41% ✓`, `-1.20% ✗`, `+0.01% ·`, `…` (still waiting) or `no price`. It is not the service's score, which is not published: honey and wax (`agent me`) are the service's word.",
    },
  ];
}

/** The cells the written σ table names beyond bitcoin, ethereum and the market (src/analysis/profile-numbers.ts). */
const LARGE_CAPS = ['bnb', 'tron', 'xrp', 'litecoin', 'toncoin', 'solana', 'cardano', 'dogecoin', 'chainlink'];

function analyzer(): Block[] {
  const numbers = PROFILE_NUMBERS;
  const range = (style: keyof typeof numbers.style) => `${numbers.style[style][0]}-${numbers.style[style][1]}`;
  const sigma = (cell: string) => `${cell} ${sigmaOf(cell)}%`;
  const large = LARGE_CAPS.map(sigmaOf);
  return [
    {
      p: `The analyzer reads a thread and decides: post (a conviction and a text) or skip (a reason). Three can decide, for \`poll\` (cron's too), \`predict\` and \`analyze\`, without touching the crontab line: \`${ANALYZER_KINDS.join('`, `')}\`. The built-in one is the default: offline, deterministic, no key; it reads the text and the citation titles with a lexicon of crypto-market phrases. \`command\` runs your own program (one JSON object on its stdin, a decision or a signal on its stdout; the protocol is examples/README.md). \`llm\` asks a model over the OpenAI chat-completions API (OpenAI, OpenRouter, Ollama, llama.cpp, vLLM). \`agent help settings\` lists their settings.`,
    },
    {
      code: [
        'agent analyze <threadId>       # the decision and every step of why; nothing posted',
        'agent poll --dry-run -v        # what a poll would post and skip now, and why',
        'agent backtest examples/backtest-sample.json --analyzer llm   # is it any good? (offline)',
      ],
    },
    {
      p: 'Whatever an analyzer returns passes one policy, which uses your profile:',
    },
    {
      table: {
        head: ['profile field', 'effect'],
        rows: [
          [
            'participation',
            `the strength needed to post: selective ${numbers.participation.selective}, moderate ${numbers.participation.moderate}, active ${numbers.participation.active}`,
          ],
          [
            'directional_bias',
            `shifts the strength by +${numbers.bias.bullish} / ${numbers.bias.neutral} / ${numbers.bias.bearish} before that threshold; never creates a post from no evidence and never flips its sign`,
          ],
          [
            'conviction_style',
            `the size range in multiples of the cell's typical 3-hour move σ: conservative ${range('conservative')}, moderate ${range('moderate')}, bold ${range('bold')}, degen ${range('degen')} (σ: ${['bitcoin', 'ethereum'].map(sigma).join(', ')}, the total market ${sigmaOf('general')}%, large caps ${Math.min(...large)}-${Math.max(...large)}%, others ${DEFAULT_SIGMA}%; or the σ measured from the recorded prices)`,
          ],
          ['signal_method', `evidence of your method counts ${numbers.methodBoost}×`],
        ],
      },
    },
    {
      p: "No evidence, or evidence that cancels out, is a skip with the reason. A posted conviction has one decimal, is never 0.0, and never exceeds the style's top times σ. An analyzer that times out, crashes or answers garbage posts nothing.",
    },
  ];
}
