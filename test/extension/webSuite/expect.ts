/** The few assertions the browser suite needs (node:assert does not exist in a web worker). */
export function ok(value: unknown, message = 'expected a truthy value'): asserts value {
  if (!value) throw new Error(message);
}

export function equal<T>(actual: T, expected: T, message?: string): void {
  if (actual !== expected) throw new Error(`${message ? `${message}: ` : ''}expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

export function match(text: string, pattern: RegExp, message?: string): void {
  if (!pattern.test(text)) throw new Error(`${message ? `${message}: ` : ''}${JSON.stringify(text.slice(0, 500))} does not match ${pattern}`);
}
