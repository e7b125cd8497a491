/**
 * A new passphrase asked on the terminal, twice, without echo: what `pulumi stack
 * change-secrets-provider` asks. Undefined when standard input is no terminal (a script gives it in
 * QUOTA_STATE_NEW_PASSPHRASE or a file instead).
 */
import { createInterface } from 'node:readline';

function askHidden(question: string): Promise<string> {
  return new Promise((resolveAnswer) => {
    const terminal = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    // Echo nothing of what is typed: readline writes each key through _writeToOutput.
    (terminal as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = (text: string) => {
      if (text.startsWith(question)) process.stderr.write(question);
    };
    terminal.question(question, (answer) => {
      terminal.close();
      process.stderr.write('\n');
      resolveAnswer(answer);
    });
  });
}

export async function askNewPassphrase(): Promise<string | undefined> {
  if (!process.stdin.isTTY) return undefined;
  for (;;) {
    const first = await askHidden('Enter the new passphrase: ');
    if ((await askHidden('Re-enter the new passphrase: ')) === first) return first;
    process.stderr.write('The passphrases do not match; try again.\n');
  }
}
