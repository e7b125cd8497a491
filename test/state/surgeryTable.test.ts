/**
 * The surgery table (shared/state/surgery/operations.ts) is the one place an operation is declared:
 * package.json must contribute each row's commands (palette, the editor's submenu, an nls title),
 * and nothing else under `quotaState.state.`; the CLI's usage names each row.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATE_USAGE } from '../../cli/commands/state';
import { runSurgery, surgeryRow, SURGERY_OPERATIONS, SURGERY_TABLE } from '../../shared/state/surgery';
import { openState } from '../../shared/state/surgery';
import { parseState } from '../../shared/state/model/snapshot';

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { commands: Array<{ command: string; title: string }>; menus: Record<string, Array<{ command?: string; when?: string }>> };
};
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

/** The surgery commands that belong to no row: the runner the code actions use, the report, and opening a .json.gz. */
const NOT_OPERATIONS = new Set(['quotaState.state.run', 'quotaState.state.showReport', 'quotaState.state.openCompressed', 'quotaState.state.schema']);

const rowCommands = SURGERY_TABLE.flatMap((row) => row.commands.map((command) => command.id));

describe('the surgery table', () => {
  it('names each operation once, and each CLI alias once', () => {
    const names = SURGERY_TABLE.flatMap((row) => [row.operation, ...row.aliases]);
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual(
      SURGERY_OPERATIONS,
      SURGERY_TABLE.map((row) => row.operation),
    );
    for (const name of names) assert.ok(surgeryRow(name), name);
    assert.equal(surgeryRow('rm')?.operation, 'remove');
    assert.equal(surgeryRow('mv')?.operation, 'move');
    assert.equal(surgeryRow('nope'), undefined);
  });

  it("package.json contributes every row's commands, with an nls title, in the palette and the editor's submenu", () => {
    const contributed = new Map(manifest.contributes.commands.map((c) => [c.command, c.title]));
    const palette = manifest.contributes.menus.commandPalette;
    const submenu = manifest.contributes.menus['quotaState.state'].map((m) => m.command);
    for (const id of rowCommands) {
      const title = contributed.get(id);
      assert.ok(title, `${id} is not in contributes.commands`);
      const key = /^%(.+)%$/.exec(title)?.[1];
      assert.ok(key && nls[key], `${id}'s title ${title} has no English in package.nls.json`);
      assert.equal(palette.find((m) => m.command === id)?.when, 'quotaState.activeStateFile', `${id} is not in the palette for state files`);
      assert.ok(submenu.includes(id), `${id} is not in the editor's state submenu`);
    }
  });

  it('package.json contributes no operation command the table does not have', () => {
    const stray = manifest.contributes.commands.map((c) => c.command).filter((id) => id.startsWith('quotaState.state.') && !NOT_OPERATIONS.has(id) && !rowCommands.includes(id));
    assert.deepEqual(stray, []);
  });

  it("the CLI's usage has a line per row, with its aliases", () => {
    for (const row of SURGERY_TABLE) {
      assert.ok(STATE_USAGE.includes(`quota-state state ${row.usage}`), row.operation);
      assert.ok(row.usage.startsWith([row.operation, ...row.aliases].join('|')), row.operation);
    }
  });

  it('runs a row on a text, its snapshot or its opened document alike', () => {
    const text = readFileSync(join(root, 'examples', 'webshop.state.json'), 'utf8');
    const urn = (JSON.parse(text) as { deployment: { resources: Array<{ urn: string }> } }).deployment.resources.at(-1)!.urn;
    const call = { operation: 'taint' as const, targets: [urn] };
    const fromText = runSurgery(text, call).source;
    assert.equal(fromText.status, 'applied');
    assert.equal(runSurgery(parseState(text), call).source.text, fromText.text);
    assert.equal(runSurgery(openState(text), call).source.text, fromText.text);
    assert.throws(() => runSurgery(text, { operation: 'move', targets: [urn] }), /destination/);
  });
});
