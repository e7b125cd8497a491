/**
 * Draws the resource graph's pictures of a few documents: it keeps each one's last parsed state (and
 * the last that parsed as JSON, drawn while the text has syntax errors) and answers a picture for a
 * request. It runs in the graph worker (graphWorker.ts) in Node, and on the server's thread in the
 * browser, where there are no worker threads.
 */
import * as l10n from '@vscode/l10n';
import type { Diagnostic } from '../../shared/diagnostics';
import type { ResourceGraphResult } from '../../shared/protocol';
import { createStateService, type StateDocument } from '../../shared/state';
import type { GraphAnswer, GraphJob } from './graphMessages';

const service = createStateService();

/** At most this many documents' states are kept: a graph panel shows one file, and each 100 MB state costs several times that. */
const KEPT_DOCUMENTS = 2;

interface Drawn {
  document: StateDocument;
  /** The document version or the file's stamp. */
  stamp: string;
  diagnostics: Diagnostic[];
}

interface Kept {
  current: Drawn;
  /** The last state that parsed as JSON (the current one when it does). */
  good?: Drawn;
}

export class GraphHost {
  private readonly kept = new Map<string, Kept>();

  /** `readFile` reads a state file from disk (with its compression undone); without it, files are unreadable here. */
  constructor(private readonly readFile?: (path: string) => string) {}

  forget(uri: string): void {
    this.kept.delete(uri);
  }

  /** `beforeLayout`: asked once the state is read and its graph built; false stops there (the job was cancelled). */
  answer(job: GraphJob, beforeLayout: () => boolean = () => true): GraphAnswer {
    const stamp = job.source.kind === 'document' ? String(job.source.version) : job.source.stamp;
    let kept = this.kept.get(job.uri);
    if (!kept || kept.current.stamp !== stamp) {
      let text: string;
      if (job.source.kind === 'document') {
        if (job.source.text === undefined) return { resync: true };
        text = job.source.text;
      } else {
        try {
          if (!this.readFile) throw new Error(l10n.t('files cannot be read here'));
          text = this.readFile(job.source.path);
        } catch (error) {
          return { error: error instanceof Error ? error.message : String(error), unreadable: true };
        }
      }
      const snapshot = service.parse(text);
      const current: Drawn = { document: { snapshot, navigation: service.navigationIndex(snapshot) }, stamp, diagnostics: job.diagnostics };
      kept = { current, good: snapshot.parsedWith === 'json' ? current : kept?.good };
      this.kept.delete(job.uri);
      this.kept.set(job.uri, kept);
      while (this.kept.size > KEPT_DOCUMENTS) this.kept.delete(this.kept.keys().next().value!);
    } else {
      kept.current.diagnostics = job.diagnostics;
    }
    // Reading and building are of use to the next picture; only the layout is this request's own.
    service.graph.prepare((kept.good ?? kept.current).document);
    if (!beforeLayout()) return { cancelled: true };
    return { view: this.view(kept, job) };
  }

  private view(kept: Kept, job: GraphJob): ResourceGraphResult {
    const version = job.source.kind === 'document' ? job.source.version : 0;
    const { good, current } = kept;
    if (!good) {
      return {
        ...service.graph.view(current.document, current.diagnostics, job.request),
        version,
        stale: l10n.t('The file has JSON syntax errors; the graph shows what could be read.'),
      };
    }
    // The cursor's offset is of the current text: it names a record only in the version drawn.
    const request = good === current ? job.request : { ...job.request, offset: undefined };
    const drawnVersion = job.source.kind === 'document' ? Number(good.stamp) : 0;
    const view: ResourceGraphResult = { ...service.graph.view(good.document, good.diagnostics, request), version: drawnVersion };
    if (job.dot) view.dot = service.graph.dot(service.graph.build(good.document.snapshot.structure.resources.map((entry) => entry.value)));
    return good === current ? view : { ...view, stale: l10n.t('The file has JSON syntax errors; the graph shows its last version that parsed.') };
  }
}
