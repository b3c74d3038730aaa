import { AnalyzerConfigError, AnalyzerError } from '../errors.js';
import type { Analyzer } from './types.js';

/**
 * The user's choice `analyzer.fallback builtin`: when their analyzer cannot answer (an AnalyzerError:
 * timeout, crash, garbage; or an AnalyzerConfigError: a model that refuses every request), the backup
 * decides instead and the trace says so. A bug is not hidden this way.
 */
export function withFallback(
  primary: Analyzer,
  backup: Analyzer,
  onFallback?: (error: AnalyzerError | AnalyzerConfigError) => void,
): Analyzer {
  return {
    name: `${primary.name}, falling back to ${backup.name}`,
    async analyze(thread, profile, trace) {
      try {
        return await primary.analyze(thread, profile, trace);
      } catch (error) {
        if (!(error instanceof AnalyzerError || error instanceof AnalyzerConfigError)) throw error;
        trace.push(
          `fallback: the ${primary.name} analyzer failed (${error.message}); the ${backup.name} analyzer decides`,
        );
        onFallback?.(error);
        return backup.analyze(thread, profile, trace);
      }
    },
    close: async () => {
      await primary.close?.();
    },
  };
}
