/**
 * One account, one explanation: the dashboard, the status bar, the usage report and Check Quota,
 * the hover and previews in a quota file, and `quota-state evaluate` all render the same
 * `explainAccount` answer, for the account read from a quota file and from the quota API alike.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { accountStatus } from '../../client/accountStatus';
import { renderDashboard } from '../../client/dashboard/html';
import { SHOWN_SUBJECTS } from '../../client/dashboard/model';
import { describeCheck, explainCheck, formatMyQuota } from '../../client/usageReport';
import type { QuotaInfo } from '../../shared/api/types';
import { analyzeQuotaConfig } from '../../shared/quota/config';
import { explainAccount, type AccountExplanation } from '../../shared/quota/explain';
import { quotaUsedFromLeafUsage } from '../../shared/quota/quotaInfo';
import { fileForgejoProfile } from '../../shared/quota/report';
import { formatSize } from '../../shared/quota/sizes';
import { quotaHover } from '../../shared/quota/services/hover';
import { previewAccounts, previewInlayHints } from '../../shared/quota/services/previews';
import { CANONICAL_SUBJECTS } from '../../shared/quota/subjects';
import { zeroUsage } from '../../shared/quota/usage';
import { runQuotaState } from '../helpers/processes';

const MiB = 2 ** 20;
const SERVER = 'http://forge.test/api/v1';

/** bob: over on repositories, exactly at the assets limit (refused from 13.0 only), within on LFS, size:all covered by no rule. */
const RULES = [
  { name: 'repos-100m', limit: 100 * MiB, subjects: ['size:repos:all'] },
  { name: 'lfs-50m', limit: 50 * MiB, subjects: ['size:git:lfs'] },
  { name: 'assets-10m', limit: 10 * MiB, subjects: ['size:assets:all'] },
];
const USAGE = { ...zeroUsage(), 'size:repos:private': 140 * MiB, 'size:git:lfs': 2 * MiB, 'size:assets:artifacts': 10 * MiB };

function quotaFile(version: string): string {
  return JSON.stringify(
    {
      forgejoVersion: version,
      rules: RULES,
      groups: [{ name: 'free', rules: RULES.map((r) => r.name) }],
      assignments: { bob: ['free'] },
      usage: { bob: { 'size:repos:private': '140 MiB', 'size:git:lfs': '2 MiB', 'size:assets:artifacts': '10 MiB' } },
    },
    null,
    2,
  );
}

/** bob as a site administrator's `GET /admin/users/bob/quota` answers (names shown). */
const BOB: QuotaInfo = { used: quotaUsedFromLeafUsage(USAGE), groups: [{ name: 'free', rules: RULES }] };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** What every view must agree on: the verdicts, the deciding rules and groups, the room left and the reasons. */
function essence(explanation: AccountExplanation) {
  const { account, forgejo, within, failing, groups, subjects, reason } = explanation;
  return { account, forgejo, within, failing, groups, subjects, reason };
}

for (const version of ['11.0.3', '15.0.9']) {
  describe(`every view renders one explanation of an account (Forgejo ${version})`, () => {
    const text = quotaFile(version);
    const analysis = analyzeQuotaConfig(text);
    const profile = fileForgejoProfile(analysis).profile;
    const explained = explainAccount('bob', { model: analysis.model, usage: analysis.usage.get('bob') }, { profile });
    const fromApi = explainAccount('bob', { quota: BOB }, { profile });
    const shown = explainAccount('bob', { quota: BOB }, { profile, subjects: SHOWN_SUBJECTS });
    let folder: string;

    before(() => {
      assert.deepEqual(analysis.diagnostics, []);
      assert.equal(profile.version, version);
      folder = mkdtempSync(join(tmpdir(), 'quota-state-one-explanation-'));
    });
    after(() => rmSync(folder, { recursive: true, force: true }));

    it('the account read from a quota file and from the quota API is explained alike', () => {
      assert.deepEqual(essence(fromApi), essence(explained));
      assert.deepEqual(
        shown.subjects,
        explained.subjects.filter((s) => s.subject !== 'none'),
      );
      // The scenario covers each kind of answer, and the version decides the one at the limit.
      const verdicts = Object.fromEntries(explained.subjects.map((s) => [s.subject, s.verdict]));
      assert.equal(verdicts['size:repos:all'], 'fails');
      assert.equal(verdicts['size:git:lfs'], 'allowed');
      assert.equal(verdicts['size:assets:all'], version === '11.0.3' ? 'allowed' : 'fails');
      assert.equal(verdicts['size:all'], version === '11.0.3' ? 'fails' : 'uncovered');
      assert.ok(
        explained.subjects.some((s) => s.versionNotes.length > 0),
        'the version has a part in some reason',
      );
    });

    it('the dashboard shows each subject with its reason, deciding rule, share and room', () => {
      const html = renderDashboard({ ...shown, origin: { kind: 'admin', server: SERVER } }, { cspSource: 'c', nonce: 'n', l10n });
      for (const subject of shown.subjects) {
        assert.ok(html.includes(escapeHtml(subject.reason)), `${subject.subject}: ${subject.reason}`);
        if (subject.decidedBy && subject.percent !== undefined)
          assert.ok(html.includes(`${subject.percent}% of ${formatSize(subject.decidedBy.rule.limit)} (rule ${subject.decidedBy.rule.name})`), subject.subject);
      }
      assert.ok(html.includes(explained.within ? '✓ within quota' : '✗ over quota'));
    });

    it('the status bar names the subjects of the rule that fails first', () => {
      const status = accountStatus(fromApi, SERVER, l10n);
      assert.equal(status.within, explained.within);
      assert.equal(status.text, `$(account) bob ✗ ${explained.failing!.rule.subjects.join(', ')}`);
    });

    it('the usage report gives the same figures, and Check Quota the same reason', () => {
      const report = formatMyQuota(shown, SERVER);
      assert.ok(report.includes(`${explained.reason} (${explained.forgejo.rules}).`));
      for (const rule of explained.groups[0].rules) {
        assert.ok(report.includes(`- **${rule.name}** \`${rule.subjects[0]}\`: ${formatSize(rule.used)} of ${formatSize(rule.limit)} — ${rule.stands ? 'within' : 'over'}`), rule.name);
      }
      for (const subject of explained.subjects) {
        const one = explainAccount('bob', { quota: BOB }, { profile, subjects: [subject.subject] });
        const why = explainCheck(one, subject.subject, subject.allowed);
        assert.equal(why, subject.reason);
        assert.ok(describeCheck(subject.subject, subject.allowed, SERVER, why).includes(`(${subject.reason})`));
        assert.equal(explainCheck(one, subject.subject, !subject.allowed), undefined, 'no reason where the server disagrees');
      }
    });

    it("the hover on the account gives each subject's verdict and reason, and the previews each rule's", () => {
      const accounts = previewAccounts(analysis, undefined, fileForgejoProfile(analysis));
      assert.deepEqual(essence(accounts[0].explanation), essence(explained));
      const hover = quotaHover(analysis, text.indexOf('"bob": {') + 2, accounts);
      const value = (hover!.contents as { value: string }).value;
      for (const subject of explained.subjects) assert.ok(value.includes(`| \`${subject.subject}\` | ${subject.allowed ? 'within quota' : 'over quota'} | ${subject.reason} |`), subject.subject);
      const hints = previewInlayHints(analysis, accounts).map((hint) => hint.label);
      const rules = explained.groups[0].rules;
      assert.deepEqual(
        hints,
        rules.map((rule) => `${rule.stands ? '✓' : '✗'} bob ${formatSize(rule.used)}/${formatSize(rule.limit)}`),
      );
    });

    it('`quota-state evaluate` prints the same rules and reasons, and its JSON the same verdicts', () => {
      const file = join(folder, 'bob.quota.json');
      writeFileSync(file, text);
      const printed = runQuotaState(['evaluate', file]);
      assert.equal(printed.status, 0, printed.stderr);
      for (const rule of explained.groups[0].rules)
        assert.ok(printed.stdout.includes(`${rule.stands ? 'ok  ' : 'OVER'} ${rule.name}: ${formatSize(rule.used)} used of ${formatSize(rule.limit)}`), rule.name);
      for (const subject of explained.subjects.filter((s) => !s.allowed)) assert.ok(printed.stdout.includes(`\n    ${subject.reason}\n`), subject.subject);
      const json = JSON.parse(runQuotaState(['evaluate', file, '--format', 'json']).stdout);
      assert.equal(json.accounts[0].stands, explained.within);
      assert.deepEqual(json.accounts[0].checks, Object.fromEntries(CANONICAL_SUBJECTS.map((s) => [s, explained.subjects.find((e) => e.subject === s)!.allowed])));
      assert.deepEqual(
        json.accounts[0].groups[0].rules,
        explained.groups[0].rules.map(({ name, used, limit, stands }) => ({ name, used, limit, stands })),
      );
    });
  });
}
