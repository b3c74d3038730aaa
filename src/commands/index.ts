import { addAlertCommand } from './alert/command.js';
import { addAnalyzeCommand } from './analyze/command.js';
import { addBacktestCommand } from './backtest/command.js';
import { addCompletionCommand } from './completion/command.js';
import { addConfigCommand } from './config/command.js';
import { addDoctorCommand } from './doctor/command.js';
import { addHelpCommand } from './help/command.js';
import { addHistoryCommand } from './history/command.js';
import { addListCommand } from './list/command.js';
import { addMeCommand } from './me/command.js';
import { addPollCommand } from './poll/command.js';
import { addPredictCommand } from './predict/command.js';
import { addRegisterCommand } from './register/command.js';
import { addSandboxCommand } from './sandbox/command.js';
import { addScheduleCommand } from './schedule/command.js';
import { addStatsCommand } from './stats/command.js';
import { addUpdateCommand } from './update/command.js';
import type { AddCommand } from './wiring.js';

/** Every command, in the order `agent --help` lists them. */
export const COMMANDS: AddCommand[] = [
  addRegisterCommand,
  addMeCommand,
  addUpdateCommand,
  addPollCommand,
  addScheduleCommand,
  addPredictCommand,
  addHistoryCommand,
  addStatsCommand,
  addDoctorCommand,
  addListCommand,
  addConfigCommand,
  addAlertCommand,
  addAnalyzeCommand,
  addBacktestCommand,
  addSandboxCommand,
  addCompletionCommand,
  addHelpCommand,
];
