/** One figure in its own process, so its peak RSS is its own: prints {figure, maxRssBytes}. */
import { readFileSync } from 'node:fs';
import { edit, floor, jsonLanguageService, ours } from './figures';

async function main(): Promise<void> {
  const [figure, file] = process.argv.slice(2);
  const text = readFileSync(file, 'utf8');
  const before = process.memoryUsage().rss;
  if (figure === 'json-parse') floor(text);
  else if (figure === 'ours') ours(text);
  else if (figure === 'json-languageservice') await jsonLanguageService(text);
  else if (figure === 'ours-syntax-edit') ours(edit(text, 'syntax'));
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({ figure, maxRssBytes: peak, rssBeforeBytes: before }));
}

void main();
