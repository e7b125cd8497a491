/** Language mode for resource-state files. */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeState } from '../../shared/state/analyze';
import type { LanguageMode, ModeContext } from './languageMode';

export function createStateMode(_context: ModeContext): LanguageMode {
  return {
    kind: 'state',
    validate(document: TextDocument) {
      return analyzeState(document.getText()).diagnostics;
    },
  };
}
