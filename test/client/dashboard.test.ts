import * as assert from 'node:assert/strict';
import { renderDashboard } from '../../client/dashboard/html';
import { accountVerdict, dashboardFromQuotaInfo, repositoryListItem } from '../../client/dashboard/model';
import type { QuotaInfo } from '../../shared/api/types';
import { quotaUsedFromLeafUsage } from '../../shared/quota/quotaInfo';
import { zeroUsage } from '../../shared/quota/usage';
import { forgejoProfile } from '../../shared/quota/forgejoVersion';

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
    assert.deepEqual(lfs.binding, { rule: '#1.3', group: '#1', used: 2 * MiB, limit: 50 * MiB });
    assert.equal(lfs.percent, 4);
    assert.equal(lfs.headroom, 48 * MiB);
    const repos = model.subjects.find((s) => s.subject === 'size:repos:private')!;
    assert.equal(repos.allowed, false);
    assert.equal(repos.percent, 140);
    assert.equal(repos.headroom, 0);
    const all = model.subjects.find((s) => s.subject === 'size:all')!;
    assert.equal(all.explanation, 'no rule of group #1 covers size:all, so Forgejo refuses it');
  });

  it('puts the failing group and rule first, and gives the status bar its verdict', () => {
    assert.equal(model.within, false);
    assert.equal(model.groups[0].rules[0].stands, false);
    assert.equal(model.groups[0].rules[0].limit, 100 * MiB);
    assert.deepEqual(accountVerdict(model), { within: false, subject: 'size:repos:all' });
  });

  it('renders bytes and human units, escapes names, and allows only its own nonce', () => {
    const html = renderDashboard({ ...model, account: '<bob>' }, { cspSource: 'vscode-webview://x', nonce: 'N0NCE' });
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
    ].map(repositoryListItem);
    assert.deepEqual(items[0], { name: 'bob/dotfiles', size: 145_408 * 1024, detail: 'private', url: 'http://forge.test/bob/dotfiles' });
    const html = renderDashboard({ ...model, repositories: { items, total: 5 } }, { cspSource: 'c', nonce: 'n' });
    const section = html.slice(html.indexOf('<h2>Largest repositories</h2>'));
    assert.ok(section.length < html.length, 'no repositories section');
    assert.match(section, /<caption>The 2 largest of 5<\/caption>/);
    assert.match(section, /data-sort="148897792"><span class="human">142 MiB<\/span> <span class="bytes">148,897,792 B/);
    assert.match(section, /<button type="button" class="link" data-url="http:\/\/forge.test\/bob\/dotfiles"[^>]*>bob\/dotfiles<\/button>/);
    assert.ok(section.includes('bob/&lt;x&gt;') && !section.includes('<x>'));
    assert.ok(!/<a |href=/.test(html), 'the page itself links nowhere');
    const all = renderDashboard({ ...model, repositories: { items, total: 2 } }, { cspSource: 'c', nonce: 'n' });
    assert.match(all, /<caption>All 2, largest first<\/caption>/);
  });

  it('says so when the server lists no group', () => {
    const none = dashboardFromQuotaInfo('dave', { used: bob.used, groups: [] }, { kind: 'admin', server: 's' });
    assert.equal(none.noGroups, true);
    assert.match(none.subjects[0].explanation, /lists no quota group for dave/);
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
    assert.equal(old.rules, 'Forgejo 11.0 rules');
    assert.match(renderDashboard(old, { cspSource: 'c', nonce: 'n' }), /signed in to http:\/\/127\.0\.0\.1:1\/api\/v1 · Forgejo 11\.0 rules/);
    const newest = dashboardFromQuotaInfo('dora', atLimit, { kind: 'self', server: 'http://127.0.0.1:1/api/v1' });
    assert.equal(newest.within, false);
    assert.equal(newest.rules, 'Forgejo 15.0 rules');
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
    assert.match(renderDashboard(model, { cspSource: 'c', nonce: 'n' }), /9,223,372,036,854,775,807 B/);
  });
});
