/** One figure in its own process, so its peak RSS is its own: prints {figure, maxRssBytes}. */
import { readFileSync } from 'node:fs';
import { edit, floor, jsonLanguageService, ours, oursAfterEdit, previousAnalysis } from './figures';

async function main(): Promise<void> {
  const [figure, file] = process.argv.slice(2);
  const text = readFileSync(file, 'utf8');
  // A keystroke's memory is what it adds to the previous version's analysis, which the server already holds.
  const previous = figure === 'ours-syntax-edit' ? previousAnalysis(text, true) : undefined;
  const edited = previous && edit(text, 'syntax');
  const before = process.memoryUsage().rss;
  if (figure === 'json-parse') floor(text);
  else if (figure === 'ours') ours(text);
  else if (figure === 'json-languageservice') await jsonLanguageService(text);
  else if (previous && edited) oursAfterEdit(previous, edited);
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({ figure, maxRssBytes: peak, rssBeforeBytes: before }));
}

void main();
