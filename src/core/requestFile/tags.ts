/**
 * Tags (`"tags": ["smoke"]` in a request file or a collection.json): one word each, as a command
 * line names them (`carrier run --tag smoke`); `!` starts the `--tag '!slow'` that leaves one out.
 */

/** Why `tag` is no tag, or undefined. */
export function tagProblem(tag: unknown): string | undefined {
  if (typeof tag !== 'string' || !tag) return 'a tag is a non-empty string';
  if (/[\s,]/.test(tag)) return `tag "${tag}" has a space or comma; a tag is one word (smoke, slow, bol-lifecycle)`;
  if (tag.startsWith('!')) return `tag "${tag}" starts with "!", which --tag uses to leave a tag out`;
  return undefined;
}
