/** Reads the `quotaState.*` settings the client itself uses (the server reads its own part). */
import * as vscode from 'vscode';
import { DEFAULT_TIMEOUT_MS, normaliseBaseUrl } from '../shared/api/client';
import { SETTINGS_SECTION } from '../shared/protocol';

export interface ApiSettings {
  /** Normalised base URL, or undefined when the setting is empty. */
  baseUrl: string | undefined;
  /** The raw value when it is not a valid URL, so the message can quote it. */
  invalidBaseUrl?: string;
  timeoutMs: number;
}

export function readApiSettings(): ApiSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const raw = (config.get<string>('api.baseUrl') ?? '').trim();
  const timeout = config.get<number>('api.timeout');
  const timeoutMs = typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS;
  if (raw === '') return { baseUrl: undefined, timeoutMs };
  try {
    const baseUrl = normaliseBaseUrl(raw);
    const protocol = new URL(baseUrl).protocol;
    if (protocol !== 'http:' && protocol !== 'https:') return { baseUrl: undefined, invalidBaseUrl: raw, timeoutMs };
    return { baseUrl, timeoutMs };
  } catch {
    return { baseUrl: undefined, invalidBaseUrl: raw, timeoutMs };
  }
}

export function affectsApiSettings(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SETTINGS_SECTION}.api`);
}
