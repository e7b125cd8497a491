/**
 * Every message the extension shows goes through here, so the log records it and the
 * extension-host tests can read what a user would have seen (in test mode only).
 */
import * as vscode from 'vscode';

export type MessageLevel = 'info' | 'warning' | 'error';

export interface ShownMessage {
  level: MessageLevel;
  text: string;
  /** The buttons offered with the message. */
  actions: string[];
}

export class Notifier {
  readonly shown: ShownMessage[] = [];

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly recordForTests: boolean,
  ) {}

  info<T extends string>(text: string, ...actions: T[]): Thenable<T | undefined> {
    this.record('info', text, actions);
    this.log.info(text);
    return vscode.window.showInformationMessage(text, ...actions);
  }

  warning<T extends string>(text: string, ...actions: T[]): Thenable<T | undefined> {
    this.record('warning', text, actions);
    this.log.warn(text);
    return vscode.window.showWarningMessage(text, ...actions);
  }

  error<T extends string>(text: string, ...actions: T[]): Thenable<T | undefined> {
    this.record('error', text, actions);
    this.log.error(text);
    return vscode.window.showErrorMessage(text, ...actions);
  }

  private record(level: MessageLevel, text: string, actions: string[]): void {
    if (this.recordForTests) this.shown.push({ level, text, actions });
  }
}
