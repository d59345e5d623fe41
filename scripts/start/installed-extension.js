// Makes the repository an installed extension of a code-server extensions folder: a symlink named
// as VS Code names installed extensions (<publisher>.<name>-<version>). code-server has no
// --extensionDevelopmentPath switch, and a link (not a copy) means `npm run build` plus
// "Developer: Reload Window" shows a change without reinstalling anything.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/** @returns {string} the extension's identifier, publisher.name */
function linkRepositoryAsExtension(repoRoot, extensionsDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const linkName = `${id}-${manifest.version}`;
  fs.mkdirSync(extensionsDir, { recursive: true });
  for (const entry of fs.readdirSync(extensionsDir)) {
    // A link left by an earlier version would load the extension twice.
    if (entry.startsWith(`${id}-`) && entry !== linkName) fs.rmSync(path.join(extensionsDir, entry), { recursive: true, force: true });
  }
  const link = path.join(extensionsDir, linkName);
  let current;
  try {
    current = fs.readlinkSync(link);
  } catch {
    current = undefined;
  }
  if (current !== repoRoot) {
    fs.rmSync(link, { recursive: true, force: true });
    fs.symlinkSync(repoRoot, link, 'dir');
  }
  // extensions.json is VS Code's list of what is installed; it only scans the folder when the
  // list is missing, so dropping it makes the link (and nothing stale) what it finds.
  fs.rmSync(path.join(extensionsDir, 'extensions.json'), { force: true });
  return id;
}

module.exports = { linkRepositoryAsExtension };
