import { AnalyserConfigError, AnalyserError } from '../errors.js';
import type { Analyser } from './types.js';

/**
 * The user's choice `analyzer.fallback builtin`: when their analyser cannot answer (an AnalyserError:
 * timeout, crash, garbage; or an AnalyserConfigError: a model that refuses every request), the backup
 * decides instead and the trace says so. A bug is not hidden this way.
 */
export function withFallback(primary: Analyser, backup: Analyser, onFallback?: (error: AnalyserError | AnalyserConfigError) => void): Analyser {
  return {
    name: `${primary.name}, falling back to ${backup.name}`,
    async analyse(thread, profile, trace) {
      try {
        return await primary.analyse(thread, profile, trace);
      } catch (error) {
        if (!(error instanceof AnalyserError || error instanceof AnalyserConfigError)) throw error;
        trace.push(`fallback: the ${primary.name} analyser failed (${error.message}); the ${backup.name} analyser decides`);
        onFallback?.(error);
        return backup.analyse(thread, profile, trace);
      }
    },
    close: async () => {
      await primary.close?.();
    },
  };
}
