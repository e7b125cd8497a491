/** What a quota rule reads and reports: the read file in, findings located by text offsets out. */
import type { Finding, Span } from '../../diagnostics';
import type { QuotaCode } from '../codes';
import type { QuotaReading } from '../reader';

/** A quota rule's finding, located by offsets in the file's text. */
export type QuotaFinding = Finding<Span, QuotaCode>;

/** One rule about a read quota file. */
export type QuotaCheck = (reading: QuotaReading) => QuotaFinding[];
