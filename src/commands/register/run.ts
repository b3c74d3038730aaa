import type { Context } from '../../context.js';
import { stateStore } from '../../session.js';
import { commandDeadline } from '../../domain/budget.js';
import { LIMITS, PROFILE_FIELDS, type Profile } from '../../domain/profile.js';
import { StateError, UsageError } from '../../errors.js';
import { createHttpClient } from '../../http/client.js';
import { baseUrlText, parseBaseUrl } from '../../http/origin.js';
import { refuseUnverifiedTls } from '../../http/tls-check.js';
import { nextAfterRegister } from '../../output/command-hint.js';
import { maskKey, shownPath } from '../../output/sanitize.js';
import { createServiceApi, type ServiceApi } from '../../service/api.js';
import { unreachable } from './reach-service.js';
import { profileFlags, type ProfileOptions } from '../wiring.js';
import { acquireLock } from '../../state/lock.js';
import type { State } from '../../state/schema.js';
import {
  checkAvatarUrl,
  checkBio,
  checkName,
  checkProfileValue,
  failOn,
  PROFILE_FLAG_NAMES,
  plainName,
  profileFromFlags,
  type ProfileFlags,
} from '../../domain/inputs.js';

/** The flags as commander gives them; checked here. */
export interface RegisterOptions extends ProfileOptions {
  name?: string;
  bio?: string;
  avatarUrl?: string;
  force?: boolean;
}

/** The flags with the profile's own field names, as checked below. */
interface Given extends ProfileFlags {
  name?: string;
  bio?: string;
  avatarUrl?: string;
  force?: boolean;
}

// One input, three stages: `flags` as commander gives them, `given` (the flags checked, with the profile's
// own field names), `values` (given plus the answers to what was missing: complete).
export async function runRegister(ctx: Context, flags: RegisterOptions): Promise<void> {
  const { bio, avatarUrl, force } = flags;
  const name = flags.name === undefined ? undefined : plainName(flags.name);
  const given: Given = { ...profileFlags(flags), name, bio, avatarUrl, force };
  // What was given as flags is checked before any question: a typo there is not found after five answers.
  failOn([
    given.name === undefined ? undefined : checkName(given.name),
    given.bio === undefined ? undefined : checkBio(given.bio),
    given.avatarUrl === undefined ? undefined : checkAvatarUrl(given.avatarUrl),
  ]);
  profileFromFlags(given);
  if (flags.name !== undefined && name !== undefined) noteChangedName(flags.name, name, ctx);
  const { values, baseUrl } = await askForMissing(given, ctx);
  const profile = profileFromFlags(values) as Profile;
  refuseUnverifiedTls(baseUrl, ctx.env, 'the new API key');

  // Everything local is checked before the request: once the service has issued a key, failing to store
  // it would lose the agent's identity.
  const store = stateStore(ctx);
  store.prepareDir();
  const lock = acquireLock({ dir: store.dir, pid: ctx.pid, now: ctx.timing.now(), user: ctx.user });
  try {
    const existing = safeExists(store);
    if (existing && !given.force) {
      throw new UsageError(`an agent is already registered in ${shownPath(store.dir)}`, {
        hint: 'use --force to register a new one (the old state is kept as a backup), or another --config-dir',
      });
    }
    // The backup is made before the request: once the service has issued a key, nothing may fail before
    // it is stored.
    const backup = existing ? store.backup(new Date(ctx.timing.now()).toISOString()) : undefined;
    // The state file is created, and its disk space taken, before the request: a full disk is found out
    // while the name is still free.
    const reserved = store.reserve();
    let registered: Awaited<ReturnType<ServiceApi['register']>>;
    try {
      const spinner = await ctx.output.spinner(`Registering ${values.name}…`);
      const api = createServiceApi(
        createHttpClient({
          baseUrl,
          transport: ctx.transport(),
          timing: ctx.timing,
          timeoutMs: ctx.requestTimeoutMs,
          deadline: commandDeadline(ctx.timing.now()),
          waitOnRateLimit: true,
        }),
      );
      try {
        registered = await api.register({
          name: values.name,
          prediction_profile: profile,
          ...(values.bio === undefined ? {} : { bio: values.bio }),
          ...(values.avatarUrl === undefined ? {} : { avatar_url: values.avatarUrl }),
        });
      } finally {
        spinner.stop();
      }
    } catch (error) {
      reserved.abandon();
      throw error;
    }
    ctx.output.addSecret(registered.apiKey);
    const state: State = {
      apiKey: registered.apiKey,
      agentName: registered.agent.name,
      agentId: registered.agent.id,
      cursor: null,
      baseUrl: baseUrlText(baseUrl),
    };
    try {
      reserved.commit(state);
    } catch (error) {
      revealUnsavedState(ctx, store.file, state);
      throw error;
    }
    ctx.output.result(
      [
        `Registered ${registered.agent.name} (${registered.agent.id}) with ${baseUrlText(baseUrl)}.`,
        `API key ${maskKey(registered.apiKey)} saved in ${shownPath(store.file)} (mode 600).`,
        ...(backup ? [`The previous state was kept in ${shownPath(backup)}.`] : []),
        nextAfterRegister(ctx),
      ],
      { agent: registered.agent, stateFile: store.file },
    );
  } finally {
    lock.release();
  }
}

/**
 * The service has issued the key and taken the name, but the key could not be stored: this is the one
 * place the full key is printed, because it exists nowhere else and without it the agent is lost for good
 * (its name cannot be registered again). Only on stderr, never in the --json document.
 */
function revealUnsavedState(ctx: Context, file: string, state: State): void {
  ctx.output.revealOnce(
    [
      `agent: ${state.agentName} is registered, but its state could not be saved in ${shownPath(file)}: its API key exists nowhere else and is shown this once.`,
      `agent: once there is room, save the next line, exactly, as ${shownPath(file)}, then run: chmod 600 '${file}'`,
      JSON.stringify(state),
    ].join('\n'),
  );
}

interface Values extends ProfileFlags {
  name: string;
  bio?: string;
  avatarUrl?: string;
}

/** What each profile question means, shown with its choices. */
const PROFILE_QUESTIONS: Record<keyof Profile, string> = {
  signal_method: 'Signal method, the evidence that weighs more',
  conviction_style: 'Conviction style, how large the predicted moves are',
  directional_bias: 'Directional bias, a lean applied before the posting threshold',
  participation: 'Participation, how strong a signal must be to post',
};

/**
 * At a terminal, asks for what the flags left out: the address first (nothing else is any use without it),
 * then the name and the profile, each answer checked as it is given and asked again, with the reason, until
 * it is valid. Without a terminal, names everything missing at once.
 */
async function askForMissing(given: Given, ctx: Context): Promise<{ values: Values; baseUrl: URL }> {
  const address = ctx.baseUrl === undefined ? undefined : parseBaseUrl(ctx.baseUrl);
  const fields = (Object.keys(PROFILE_FLAG_NAMES) as Array<keyof Profile>).filter((f) => given[f] === undefined);
  const values: Given = { ...given };
  if (address && values.name !== undefined && fields.length === 0)
    return { values: values as Values, baseUrl: address };
  const prompt = ctx.prompt?.available() ? ctx.prompt : undefined;
  if (!prompt) {
    const flags = [...(values.name === undefined ? ['--name'] : []), ...fields.map((f) => PROFILE_FLAG_NAMES[f])];
    const missing = [
      address ? undefined : 'no service address: pass --base-url <url> or set AGENT_BASE_URL',
      flags.length ? `missing ${flags.join(', ')}` : undefined,
    ];
    throw new UsageError(missing.filter(Boolean).join('; '), { hint: 'nothing was sent' });
  }
  type Checked<T> = { value: T } | { problem: string };
  const ask = async <T>(question: string, check: (answer: string) => Checked<T> | Promise<Checked<T>>): Promise<T> => {
    let text = question;
    for (;;) {
      const checked = await check((await prompt.ask(text)).trim());
      if ('value' in checked) return checked.value;
      text = `${checked.problem}. ${question}`;
    }
  };
  // The address is reached before anything else is asked: a wrong port is found now, not after five answers.
  if (address) {
    refuseUnverifiedTls(address, ctx.env, 'the new API key');
    const failed = await unreachable(address, ctx);
    if (failed) throw failed;
  }
  const baseUrl =
    address ??
    (await ask<URL>('Service address (https://…; plain http only on this machine): ', async (answer) => {
      let url: URL;
      try {
        url = parseBaseUrl(answer);
      } catch (error) {
        if (error instanceof UsageError) return { problem: error.message };
        throw error;
      }
      refuseUnverifiedTls(url, ctx.env, 'the new API key');
      const failed = await unreachable(url, ctx);
      return failed ? { problem: failed.hint ? `${failed.message} (${failed.hint})` : failed.message } : { value: url };
    }));
  if (values.name === undefined) {
    values.name = await ask(
      `Agent name, ${LIMITS.nameMin}-${LIMITS.nameMax} characters, cannot be changed later: `,
      (answer) => {
        const name = plainName(answer);
        const problem = checkName(name, 'the name');
        if (!problem) noteChangedName(answer, name, ctx);
        return problem ? { problem } : { value: name };
      },
    );
  }
  for (const field of fields) {
    values[field] = await ask(`${PROFILE_QUESTIONS[field]} (${PROFILE_FIELDS[field].join('/')}): `, (answer) => {
      const problem = checkProfileValue(field, answer.toLowerCase(), `the ${field.replace('_', ' ')}`);
      return problem ? { problem } : { value: answer.toLowerCase() };
    });
  }
  return { values: values as Values, baseUrl };
}

/** Says what name is sent when it is not exactly what was typed: it can never be changed afterwards. */
function noteChangedName(typed: string, name: string, ctx: Context): void {
  if (typed !== name)
    ctx.output.warn(
      `note: registering the name as ${JSON.stringify(name)} (spaces around it dropped, full-width forms made plain)`,
    );
}

// A corrupt old state is still "an agent registered here": --force keeps it as the backup.
function safeExists(store: ReturnType<typeof stateStore>): boolean {
  try {
    return store.read() !== undefined;
  } catch (error) {
    if (error instanceof StateError && error.reason === 'corrupt') return true;
    throw error;
  }
}
