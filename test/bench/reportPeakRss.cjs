// Preloaded (node -r) into a process the bench measures: writes its peak RSS, in bytes, to
// BENCH_PEAK_RSS_FILE when it exits, so that a whole-process figure can report its memory too.
process.on('exit', () => require('node:fs').writeFileSync(process.env.BENCH_PEAK_RSS_FILE, String(process.resourceUsage().maxRSS * 1024)));
