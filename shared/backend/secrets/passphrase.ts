/**
 * Where the passphrase comes from, as manager.go's `readPassphrase` looks (pkg/secrets/passphrase,
 * v3.274.1): `PULUMI_CONFIG_PASSPHRASE` when it is set at all, even empty, taken verbatim; else
 * `PULUMI_CONFIG_PASSPHRASE_FILE` when set and not empty, the file's content with Go's
 * `strings.TrimSpace` applied. Pulumi would then prompt on a terminal; a command here says it needs one.
 * The file is read by the caller (`readFile`): shared/ does no I/O.
 */

export interface Passphrase {
  /** The passphrase itself: never printed, logged or put in a message. */
  value: string;
  source: 'PULUMI_CONFIG_PASSPHRASE' | 'PULUMI_CONFIG_PASSPHRASE_FILE';
}

/** Go's `unicode.IsSpace`: ASCII's six, U+0085, U+00A0 and the other White_Space code points (not U+FEFF, which JavaScript's trim takes). */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const LEADING = new RegExp(`^${GO_SPACE}+`);
const TRAILING = new RegExp(`${GO_SPACE}+$`);

/** Go's `strings.TrimSpace`. */
export function goTrimSpace(text: string): string {
  return text.replace(LEADING, '').replace(TRAILING, '');
}

/**
 * The passphrase the environment gives, or undefined when it gives none. `readFile` reads the file
 * `PULUMI_CONFIG_PASSPHRASE_FILE` names (a relative path from the working folder, as Go's
 * `filepath.Abs`); its errors pass through.
 */
export function passphraseFromEnvironment(env: Readonly<Record<string, string | undefined>>, readFile: (path: string) => string): Passphrase | undefined {
  const direct = env.PULUMI_CONFIG_PASSPHRASE;
  if (direct !== undefined) return { value: direct, source: 'PULUMI_CONFIG_PASSPHRASE' };
  const file = env.PULUMI_CONFIG_PASSPHRASE_FILE;
  if (file) return { value: goTrimSpace(readFile(file)), source: 'PULUMI_CONFIG_PASSPHRASE_FILE' };
  return undefined;
}
