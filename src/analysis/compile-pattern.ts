/** A pattern the program compiled from a string, kept so that a test can check what each one costs. */
export interface CompiledPattern {
  readonly source: string;
  readonly flags: string;
}

const compiled: CompiledPattern[] = [];

/**
 * The one place where a regular expression is compiled from a string. Literals can be read from the
 * source files; a pattern built from a table or a template cannot, so each goes through here and is
 * recorded: test/regex-cost.test.ts checks every one of them for super-linear backtracking.
 */
export function compilePattern(source: string, flags = ''): RegExp {
  const pattern = new RegExp(source, flags);
  compiled.push({ source, flags });
  return pattern;
}

/** Every pattern compiled so far through compilePattern. */
export const compiledPatterns = (): readonly CompiledPattern[] => compiled;
