import * as assert from 'node:assert/strict';
import * as l10n from '@vscode/l10n';
import { renderDashboard } from '../../client/dashboard/html';
import { repositoryListItem, SHOWN_SUBJECTS, type DashboardModel } from '../../client/dashboard/model';
import type { QuotaInfo } from '../../shared/api/types';
import { explainAccount } from '../../shared/quota/explain';
import { quotaUsedFromLeafUsage } from '../../shared/quota/quotaInfo';
import { zeroUsage } from '../../shared/quota/usage';
import { forgejoProfile, type ForgejoProfile } from '../../shared/quota/forgejoVersion';

/** The dashboard's model as the panel builds it from the API's answer. */
function dashboardFromQuotaInfo(account: string, quota: QuotaInfo, origin: DashboardModel['origin'], profile?: ForgejoProfile): DashboardModel {
  return { ...explainAccount(account, { quota }, { profile, subjects: SHOWN_SUBJECTS }), origin };
}

/** English, as the page is without a bundle. */
const page = (cspSource: string, nonce: string) => ({ cspSource, nonce, l10n });

const MiB = 2 ** 20;
/** bob of the demo instance, as `GET /user/quota` answers it (names hidden in user views). */
const bob: QuotaInfo = {
  used: quotaUsedFromLeafUsage({ ...zeroUsage(), 'size:repos:private': 140 * MiB, 'size:git:lfs': 2 * MiB }),
  groups: [
    {
      rules: [
        { limit: 100 * MiB, subjects: ['size:repos:all'] },
        { limit: 10 * MiB, subjects: ['size:assets:all'] },
        { limit: 50 * MiB, subjects: ['size:git:lfs'] },
      ],
    },
  ],
};

describe('quota dashboard model and page', () => {
  const model = dashboardFromQuotaInfo('bob', bob, { kind: 'self', server: 'http://127.0.0.1:1/api/v1' });

  it('binds each subject to a rule, with the share in use and what can still be uploaded', () => {
    const lfs = model.subjects.find((s) => s.subject === 'size:git:lfs')!;
    assert.deepEqual([lfs.decidedBy?.group, lfs.decidedBy?.rule.name, lfs.decidedBy?.rule.used, lfs.decidedBy?.rule.limit], ['#1', '#1.3', 2 * MiB, 50 * MiB]);
    assert.equal(lfs.percent, 4);
    assert.equal(lfs.headroom, 48 * MiB);
    const repos = model.subjects.find((s) => s.subject === 'size:repos:private')!;
    assert.equal(repos.allowed, false);
    assert.equal(repos.percent, 140);
    assert.equal(repos.headroom, 0);
    const all = model.subjects.find((s) => s.subject === 'size:all')!;
    assert.equal(all.reason, 'no rule of group #1 covers size:all, so Forgejo refuses it');
  });

  it('gives the status bar its verdict, and lists the failing group and rule first', () => {
    assert.equal(model.within, false);
    assert.deepEqual(model.failing?.rule.subjects, ['size:repos:all']);
    assert.equal(model.groups[0].rules[0].limit, 100 * MiB);
    const html = renderDashboard({ ...model, groups: [{ name: 'fine', stands: true, rules: [] }, ...model.groups] }, page('c', 'n'));
    assert.ok(html.indexOf('#1 fails') < html.indexOf('fine stands'), 'the failing group first');
    const rules = html.slice(html.indexOf('#1 fails'));
    assert.ok(rules.indexOf('✗ fails') < rules.indexOf('✓ stands'), 'the failing rule first');
  });

  it('renders bytes and human units, escapes names, and allows only its own nonce', () => {
    const html = renderDashboard({ ...model, account: '<bob>' }, page('vscode-webview://x', 'N0NCE'));
    assert.match(html, /140 MiB<\/span> <span class="bytes">146,800,640 B/);
    assert.ok(html.includes('&lt;bob&gt;') && !html.includes('<bob>'));
    assert.match(html, /default-src 'none'; img-src vscode-webview:\/\/x; style-src 'nonce-N0NCE'; script-src 'nonce-N0NCE';/);
    assert.ok(!/style="/.test(html), 'style attributes would be refused by the policy');
    assert.ok(!/https?:\/\//.test(html.replace(/http:\/\/127\.0\.0\.1:1\/api\/v1/g, '')), 'no remote content');
  });

  it("lists the largest repositories with Forgejo's KiB as bytes and human units, each a button the extension opens", () => {
    const items = [
      { full_name: 'bob/dotfiles', size: 145_408, private: true, html_url: 'http://forge.test/bob/dotfiles' },
      { full_name: 'bob/<x>', size: 3, html_url: 'http://forge.test/bob/%3Cx%3E' },
    ].map((repo) => repositoryListItem(repo, l10n));
    assert.deepEqual(items[0], { name: 'bob/dotfiles', size: 145_408 * 1024, detail: 'private', url: 'http://forge.test/bob/dotfiles' });
    const html = renderDashboard({ ...model, repositories: { items, total: 5 } }, page('c', 'n'));
    const section = html.slice(html.indexOf('<h2>Largest repositories</h2>'));
    assert.ok(section.length < html.length, 'no repositories section');
    assert.match(section, /<caption>The 2 largest of 5<\/caption>/);
    assert.match(section, /data-sort="148897792"><span class="human">142 MiB<\/span> <span class="bytes">148,897,792 B/);
    assert.match(section, /<button type="button" class="link" data-url="http:\/\/forge.test\/bob\/dotfiles"[^>]*>bob\/dotfiles<\/button>/);
    assert.ok(section.includes('bob/&lt;x&gt;') && !section.includes('<x>'));
    assert.ok(!/<a |href=/.test(html), 'the page itself links nowhere');
    const all = renderDashboard({ ...model, repositories: { items, total: 2 } }, page('c', 'n'));
    assert.match(all, /<caption>All 2, largest first<\/caption>/);
  });

  it('says so when the server lists no group', () => {
    const none = dashboardFromQuotaInfo('dave', { used: bob.used, groups: [] }, { kind: 'admin', server: 's' });
    assert.equal(none.groupList, 'unlisted');
    assert.match(none.subjects[0].reason, /lists no quota group for dave/);
    assert.match(renderDashboard(none, page('c', 'n')), /<p>the server lists no quota group for dave, so its default total limit decides \(the API does not show it\)<\/p>/);
  });
});

describe('the dashboard follows the Forgejo version', () => {
  const atLimit: QuotaInfo = {
    used: quotaUsedFromLeafUsage({ ...zeroUsage(), 'size:repos:public': 1024 }),
    groups: [{ rules: [{ limit: 1024, subjects: ['size:repos:all'] }] }],
  };
  const v11 = forgejoProfile('11.0.3');
  assert.ok(v11.ok);
  it('a rule at its limit is within quota on 11.0 and over it on the newest rules, and the page names the rules', () => {
    const old = dashboardFromQuotaInfo('dora', atLimit, { kind: 'self', server: 'http://127.0.0.1:1/api/v1' }, v11.profile);
    assert.equal(old.within, true);
    assert.equal(old.forgejo.rules, 'Forgejo 11.0 rules');
    assert.match(renderDashboard(old, page('c', 'n')), /signed in to http:\/\/127\.0\.0\.1:1\/api\/v1 · Forgejo 11\.0 rules/);
    const newest = dashboardFromQuotaInfo('dora', atLimit, { kind: 'self', server: 'http://127.0.0.1:1/api/v1' });
    assert.equal(newest.within, false);
    assert.equal(newest.forgejo.rules, 'Forgejo 15.0 rules');
  });
});

describe('the dashboard shows int64 limits exactly', () => {
  it('a limit of 9,223,372,036,854,775,807 keeps every digit on the page', () => {
    const quota: QuotaInfo = {
      used: quotaUsedFromLeafUsage({ ...zeroUsage(), 'size:repos:public': 1024 }),
      groups: [{ name: 'huge', rules: [{ name: 'int64-max', limit: 2n ** 63n - 1n, subjects: ['size:all'] }] }],
    };
    const model = dashboardFromQuotaInfo('dora', quota, { kind: 'admin', server: 'http://127.0.0.1:1/api/v1' });
    assert.equal(model.groups[0].rules[0].limit, 9223372036854775807n);
    assert.equal(model.groups[0].rules[0].stands, true);
    assert.match(renderDashboard(model, page('c', 'n')), /9,223,372,036,854,775,807 B/);
  });
});
