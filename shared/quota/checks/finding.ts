/** What a quota check reports: a code, a message and where, as offsets; severity comes from the registry. */
import type { DiagnosticTag, Span } from '../../diagnostics';
import type { QuotaReading } from '../reader';

export interface QuotaFinding {
  code: string;
  message: string;
  span: Span;
  related?: Array<{ span: Span; message: string }>;
  tags?: DiagnosticTag[];
  data?: Record<string, unknown>;
}

/** One rule about a read quota file. */
export type QuotaCheck = (reading: QuotaReading) => QuotaFinding[];
