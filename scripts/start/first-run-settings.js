// Settings for the workbench `npm start` opens, written only on its first run (the file is the
// person's own after that): a workbench that opens on the examples, without the editor's generic
// first-run walkthrough or a prompt about the git repository around examples/.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const SETTINGS = `{
  // Written once by npm start (scripts/start/first-run-settings.js); change it as you like.
  // "Welcome: Open Walkthrough..." offers the "Get started with Carrier Workbench" walkthrough.
  "workbench.startupEditor": "none",
  "git.openRepositoryInParentFolders": "never"
}
`;

function writeFirstRunSettings(userDataDir) {
  const file = path.join(userDataDir, 'User', 'settings.json');
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, SETTINGS);
}

module.exports = { writeFirstRunSettings };
