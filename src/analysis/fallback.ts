import { AnalyzerConfigError, AnalyzerError } from '../errors.js';
import { ANALYZER_KINDS, type Analyzer, type AnalyzerKind, type AnalyzerOutput } from './types.js';

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
        return decidedBy(await primary.analyze(thread, profile, trace), primary.name);
      } catch (error) {
        if (!(error instanceof AnalyzerError || error instanceof AnalyzerConfigError)) throw error;
        trace.push(
          `fallback: the ${primary.name} analyzer failed (${error.message}); the ${backup.name} analyzer decides`,
        );
        onFallback?.(error);
        return decidedBy(await backup.analyze(thread, profile, trace), backup.name, true);
      }
    },
    close: async () => {
      await primary.close?.();
    },
  };
}

/** The output, saying which of the two decided (this wrapper's own name names both). */
function decidedBy(output: AnalyzerOutput, name: string, fallback?: true): AnalyzerOutput {
  if (!(ANALYZER_KINDS as readonly string[]).includes(name)) return output;
  return { ...output, decidedBy: { analyzer: name as AnalyzerKind, ...(fallback ? { fallback } : {}) } };
}
