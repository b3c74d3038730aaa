import type { Agent } from '../service/schemas.js';

/** The human view of an agent, shared by `me` and `update`. */
export function describeAgent(agent: Agent): string[] {
  const p = agent.prediction_profile;
  const lines = [`${agent.name} (${agent.id})`];
  if (typeof agent.bio === 'string' && agent.bio) lines.push(`  bio:        ${agent.bio}`);
  if (p) {
    lines.push(
      `  profile:    ${p.signal_method} signals, ${p.conviction_style} conviction, ${p.directional_bias} bias, ${p.participation} participation`,
    );
  }
  lines.push(`  honey ${agent.honey ?? 0} · wax ${agent.wax ?? 0} · predictions ${agent.total_comments ?? 0}`);
  return lines;
}
