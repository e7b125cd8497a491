/**
 * Files that are not regular, or too large: the CLI refuses them promptly with a clear message
 * and exit 2, and the server's from-disk analysis is never held up by them.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_FILE_BYTES } from '../../cli/files';
import { AnalyzeFromDiskNotification } from '../../shared/protocol';
import { LspTestClient } from '../helpers/lspClient';
import { runQuotaState } from '../helpers/processes';

const unix = process.platform !== 'win32';

describe('special and oversized files', function () {
  this.timeout(120_000);
  const folder = mkdtempSync(join(tmpdir(), 'quota-state-files-'));
  const fifo = (name: string) => {
    const path = join(folder, name);
    execFileSync('mkfifo', [path]);
    return path;
  };

  describe('the CLI', () => {
    before(function () {
      if (!unix) this.skip();
    });

    it('refuses a FIFO at once instead of waiting for a writer', () => {
      const path = fifo('pipe.state.json');
      for (const command of ['check', 'evaluate']) {
        const result = runQuotaState([command, path]);
        assert.equal(result.status, 2, result.stderr);
        assert.match(result.stderr, /named pipe \(FIFO\), not a regular file/);
      }
    });

    it('refuses a device such as /dev/zero without reading it', function () {
      if (!existsSync('/dev/zero')) this.skip();
      for (const command of ['check', 'evaluate']) {
        const result = runQuotaState([command, '/dev/zero']);
        assert.equal(result.status, 2, result.stderr);
        assert.match(result.stderr, /\/dev\/zero is a device, not a regular file/);
      }
    });

    it('refuses a socket', async () => {
      const path = join(folder, 'socket.state.json');
      const server: Server = createServer();
      await new Promise<void>((resolve) => server.listen(path, resolve));
      try {
        const result = runQuotaState(['check', path]);
        assert.equal(result.status, 2, result.stderr);
        assert.match(result.stderr, /is a socket, not a regular file/);
      } finally {
        server.close();
      }
    });

    it(`refuses a file over the ${MAX_FILE_BYTES / 1024 / 1024} MiB limit, naming its size and the limit`, () => {
      const path = join(folder, 'huge.state.json');
      // Sparse: takes no disk space.
      const fd = openSync(path, 'w');
      ftruncateSync(fd, MAX_FILE_BYTES + 1);
      closeSync(fd);
      const result = runQuotaState(['check', path]);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /huge\.state\.json is 256 MiB, over the 256 MiB limit/);
    });
  });

  describe('the server, analysing from disk', () => {
    before(function () {
      if (!unix) this.skip();
    });

    it('answers FIFOs with an unreadable status, and a later file is still analysed', async () => {
      const client = await LspTestClient.start();
      try {
        const pipes = Array.from({ length: 6 }, (_, i) => pathToFileURL(fifo(`disk${i}.state.json`)).toString());
        for (const uri of pipes) await client.notify(AnalyzeFromDiskNotification, { uri });
        const real = join(folder, 'real.state.json');
        writeFileSync(real, JSON.stringify({ urn: 'urn:pulumi:dev::p::aws:s3/bucket:Bucket::b', custom: true }));
        const uri = pathToFileURL(real).toString();
        const published = client.waitForDiagnostics(uri);
        await client.notify(AnalyzeFromDiskNotification, { uri });
        const diagnostics = (await published).diagnostics;
        assert.ok(
          diagnostics.some((d) => d.code === 'missing-type'),
          JSON.stringify(diagnostics),
        );
        const refused = client.notifications.map((n) => n.params as { uri: string; unavailable?: Array<{ reason: string }> }).filter((p) => pipes.includes(p.uri));
        assert.equal(refused.length, pipes.length);
        for (const status of refused) assert.match(status.unavailable?.[0]?.reason ?? '', /named pipe \(FIFO\), not a regular file/);
        client.assertNoLoggedErrors();
      } finally {
        await client.stop();
      }
    });
  });
});
