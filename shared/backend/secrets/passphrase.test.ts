import { strict as assert } from 'node:assert';
import { goTrimSpace, passphraseFromEnvironment } from './passphrase';

describe("where the passphrase comes from (manager.go's readPassphrase)", () => {
  const files: Record<string, string> = { 'phrase.txt': '  file phrase \n', 'empty.txt': '\n' };
  const readFile = (path: string) => {
    if (!(path in files)) throw new Error(`ENOENT: ${path}`);
    return files[path];
  };
  const cases: Array<[string, Record<string, string | undefined>, ReturnType<typeof passphraseFromEnvironment>]> = [
    ['PULUMI_CONFIG_PASSPHRASE as it is', { PULUMI_CONFIG_PASSPHRASE: ' spaced \n' }, { value: ' spaced \n', source: 'PULUMI_CONFIG_PASSPHRASE' }],
    ['an empty PULUMI_CONFIG_PASSPHRASE is a passphrase (os.LookupEnv)', { PULUMI_CONFIG_PASSPHRASE: '' }, { value: '', source: 'PULUMI_CONFIG_PASSPHRASE' }],
    ['PULUMI_CONFIG_PASSPHRASE wins over the file', { PULUMI_CONFIG_PASSPHRASE: 'direct', PULUMI_CONFIG_PASSPHRASE_FILE: 'phrase.txt' }, { value: 'direct', source: 'PULUMI_CONFIG_PASSPHRASE' }],
    ["the file's content, white space trimmed", { PULUMI_CONFIG_PASSPHRASE_FILE: 'phrase.txt' }, { value: 'file phrase', source: 'PULUMI_CONFIG_PASSPHRASE_FILE' }],
    ['a file of white space is the empty passphrase', { PULUMI_CONFIG_PASSPHRASE_FILE: 'empty.txt' }, { value: '', source: 'PULUMI_CONFIG_PASSPHRASE_FILE' }],
    ['an empty PULUMI_CONFIG_PASSPHRASE_FILE names no file', { PULUMI_CONFIG_PASSPHRASE_FILE: '' }, undefined],
    ['neither', {}, undefined],
  ];
  for (const [name, env, expected] of cases) it(name, () => assert.deepEqual(passphraseFromEnvironment(env, readFile), expected));

  it("a file that cannot be read is the reader's error", () => {
    assert.throws(() => passphraseFromEnvironment({ PULUMI_CONFIG_PASSPHRASE_FILE: 'missing.txt' }, readFile), /ENOENT/);
  });

  describe("Go's strings.TrimSpace, table", () => {
    const trims: Array<[string, string]> = [
      [' \t\n\v\f\rx\r\n', 'x'],
      ['\u0085\u00a0x\u2003\u3000', 'x'],
      ['\u2028x\u2029\u202f\u205f\u1680', 'x'],
      // Not white space to Go, though JavaScript's trim() takes them.
      ['\ufeffx\ufeff', '\ufeffx\ufeff'],
      ['\u200bx', '\u200bx'],
      ['a b', 'a b'],
    ];
    for (const [text, trimmed] of trims) it(JSON.stringify(text), () => assert.equal(goTrimSpace(text), trimmed));
  });
});
