/**
 * Paths of Pulumi's DIY (file://) backend, as strings: no I/O. A stack file
 * `<root>/.pulumi/stacks/<project>/<stack>.json[.gz|.zst]` is locked by the files in
 * `<root>/.pulumi/locks/organization/<project>/<stack>/` (a project-less backend: `.pulumi/stacks/<stack>.json`,
 * locked in `.pulumi/locks/<stack>/`). The one rule: the CLI's `lockFolder` (cli/stateFiles.ts)
 * applies it to native paths, the editor to URI paths.
 */
export function lockFolderOf(path: string): string | undefined {
  const parts = path.split('/');
  const at = parts.lastIndexOf('.pulumi');
  if (at === -1 || parts[at + 1] !== 'stacks') return undefined;
  const rest = parts.slice(at + 2);
  if (rest.length === 0 || !/\.json(\.gz|\.zst)?$/.test(rest[rest.length - 1])) return undefined;
  const stack = rest[rest.length - 1].replace(/\.json(\.gz|\.zst)?$/, '');
  const root = parts.slice(0, at + 1).join('/');
  if (rest.length === 2) return `${root}/locks/organization/${rest[0]}/${stack}`;
  if (rest.length === 1) return `${root}/locks/${stack}`;
  return undefined;
}
