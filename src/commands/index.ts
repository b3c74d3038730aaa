import { addAccountCommands } from './account.js';
import { addAlertCommand } from './alert/command.js';
import { addAnalyzeCommand } from './analyze.js';
import { addBacktestCommand } from './backtest.js';
import { addCompletionCommand } from './completion.js';
import { addConfigCommands } from './config.js';
import { addDoctorCommand } from './doctor.js';
import { addHelpCommand } from './help.js';
import { addHistoryCommand } from './history.js';
import { addPollCommand } from './poll.js';
import { addPredictCommand } from './predict.js';
import { addSandboxCommand } from './sandbox.js';
import { addStatsCommand } from './stats.js';
import { addScheduleCommand } from './schedule.js';
import type { AddCommand } from './wiring.js';

/** Every command, in the order `agent --help` lists them. */
export const COMMANDS: AddCommand[] = [
  addAccountCommands,
  addPollCommand,
  addScheduleCommand,
  addPredictCommand,
  addHistoryCommand,
  addStatsCommand,
  addDoctorCommand,
  addConfigCommands,
  addAlertCommand,
  addAnalyzeCommand,
  addBacktestCommand,
  addSandboxCommand,
  addCompletionCommand,
  addHelpCommand,
];
