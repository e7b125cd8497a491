/** Reading `pulumi stack export --show-secrets`, shared by the tests that compare its secrets. */

/** The plaintext of every secret of an export (`--show-secrets`), by JSON path (`/resources/3/outputs/token`). */
export function plaintexts(value: unknown, path = '', found = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) value.forEach((element, index) => plaintexts(element, `${path}/${index}`, found));
  else if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    if (object['4dabf18193072939515e22adb298388d'] === '1b47061264138c4ac30d75fd1eb44270') found.set(path, object.plaintext as string);
    else for (const [key, member] of Object.entries(object)) plaintexts(member, `${path}/${key}`, found);
  }
  return found;
}
