// What a script started (servers, browsers, temporary folders) is undone on every way out, newest first.

/** Runs and empties `cleanups`, newest first; one failing step is reported and does not stop the rest. */
export async function undoAll(cleanups) {
  for (const undo of cleanups.splice(0).reverse()) {
    try {
      await undo();
    } catch (error) {
      console.error(`cleanup: ${error instanceof Error ? error.message : error}`);
    }
  }
}

/** On Ctrl-C, a kill or a closed terminal: say so, undo everything, exit with `exitCode`. */
export function undoOnSignals(cleanups, exitCode, what = 'stopping') {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      console.error(`\nreceived ${signal}; ${what}`);
      undoAll(cleanups).finally(() => process.exit(exitCode));
    });
  }
}
