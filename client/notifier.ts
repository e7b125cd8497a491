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
  /** A modal confirmation's detail, below its message. */
  detail?: string;
}

/** Test mode: the answer a user gives by pressing Enter on a modal confirmation. */
const ENTER_ANSWER = '<Enter>';

export class Notifier {
  readonly shown: ShownMessage[] = [];
  /** Test mode only: the answers the next modal confirmations get, in order, instead of a click. */
  private confirmationAnswers: Array<string | undefined> = [];

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

  /**
   * A modal question: nothing happens until it is answered. In test mode an answer queued with
   * `answerConfirmations` is taken instead of a click (a test cannot click a modal dialog).
   */
  confirm<T extends string>(text: string, detail: string, ...actions: T[]): Thenable<T | undefined> {
    this.record('warning', text, actions, detail);
    this.log.info(`${text}\n${detail}`);
    if (this.recordForTests && this.confirmationAnswers.length) {
      const answer = this.confirmationAnswers.shift();
      // Enter in VS Code's modal picks its primary button, the first action (Cancel comes last).
      return Promise.resolve(answer === ENTER_ANSWER ? actions[0] : actions.find((action) => action === answer));
    }
    return vscode.window.showWarningMessage(text, { modal: true, detail }, ...actions);
  }

  /**
   * Test mode only: the answers of the next modal confirmations (undefined: Cancel; `<Enter>`: the
   * default button). They replace any a step left unasked, so one test's leftovers never answer the
   * next test's questions.
   */
  answerConfirmations(...answers: Array<string | undefined>): void {
    if (this.recordForTests) this.confirmationAnswers = [...answers];
  }

  private record(level: MessageLevel, text: string, actions: string[], detail?: string): void {
    if (this.recordForTests) this.shown.push({ level, text, actions, ...(detail === undefined ? {} : { detail }) });
  }
}
