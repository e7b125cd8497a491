/**
 * Paths of Pulumi's DIY (file://) backend, as strings: no I/O. A stack file
 * `<root>/.pulumi/stacks/<project>/<stack>.json[.gz|.zst]` is locked by the files in
 * `<root>/.pulumi/locks/organization/<project>/<stack>/` (a project-less backend: `.pulumi/stacks/<stack>.json`,
 * locked in `.pulumi/locks/<stack>/`). The one rule: the CLI's `lockFolder` (cli/stateFiles.ts)
 * applies it to native paths, the editor to URI paths.
 */
export function lockFolderOf(path: string): string | undefined {
  const stack = stackFileOf(path);
  if (!stack) return undefined;
  const pulumi = `${stack.root}/.pulumi`;
  return stack.project ? `${pulumi}/locks/organization/${stack.project}/${stack.name}` : `${pulumi}/locks/${stack.name}`;
}

/** A stack file's backend and stack, from its path alone. */
export interface StackFilePath {
  /** The path of the folder holding `.pulumi/` (the backend's root; '' for `/`). */
  root: string;
  /** The project, absent in a project-less (legacy) layout. */
  project?: string;
  name: string;
  /** As Pulumi names it: `organization/<project>/<stack>`, or the bare name. */
  ref: string;
}

/**
 * The backend and stack of `<root>/.pulumi/stacks/[<project>/]<stack>.json[.gz|.zst]`, however the
 * file is reached (a file path, a URI's path, an object name under a bucket's prefix); undefined
 * for any other path. The editor maps every form of a stack file's URI through it.
 */
export function stackFileOf(path: string): StackFilePath | undefined {
  const parts = path.split('/');
  const at = parts.lastIndexOf('.pulumi');
  if (at === -1 || parts[at + 1] !== 'stacks') return undefined;
  const rest = parts.slice(at + 2);
  if ((rest.length !== 1 && rest.length !== 2) || !/\.json(\.gz|\.zst)?$/.test(rest[rest.length - 1])) return undefined;
  const name = rest[rest.length - 1].replace(/\.json(\.gz|\.zst)?$/, '');
  const root = parts.slice(0, at).join('/');
  if (rest.length === 1) return { root, name, ref: name };
  return { root, project: rest[0], name, ref: `organization/${rest[0]}/${name}` };
}
