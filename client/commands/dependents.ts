/**
 * The command behind a state file's "N dependents" code lens: a references peek at the urn's
 * definition, listing where the records that depend on it refer to it.
 */
import * as vscode from 'vscode';
import { DependentsRequest, SHOW_DEPENDENTS_COMMAND, type ShowDependentsArguments } from '../../shared/protocol';
import { argumentsOf, stringArgument, type CommandContext } from './context';

export class DependentsCommands {
  constructor(private readonly context: CommandContext) {}

  register(): vscode.Disposable[] {
    return [vscode.commands.registerCommand(SHOW_DEPENDENTS_COMMAND, (args?: unknown) => this.show(args))];
  }

  /** Shows the peek and returns the locations it lists (undefined when the arguments are not a lens's). */
  async show(args?: unknown): Promise<vscode.Location[] | undefined> {
    const given = argumentsOf<ShowDependentsArguments>(args);
    const uri = stringArgument(given?.uri);
    const urn = stringArgument(given?.urn);
    if (!uri || !urn || !given?.position) return undefined;
    const client = this.context.languageClient;
    const found = await client.sendRequest(DependentsRequest, { uri, urn });
    const locations = found.map((location) => client.protocol2CodeConverter.asLocation(location));
    const position = client.protocol2CodeConverter.asPosition(given.position);
    await vscode.commands.executeCommand('editor.action.showReferences', vscode.Uri.parse(uri), position, locations);
    return locations;
  }
}
