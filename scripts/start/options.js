// The command line of `npm start -- [options]`.
'use strict';

const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

const USAGE = `Usage: npm start -- [--port N] [--folder DIR] [--data-dir DIR] [--code-server] [--restricted]

Opens the Carrier Workbench on a folder of request files (examples/ by default), with the
extension loaded and the embedded sandbox as the environment: in a desktop VS Code when \`code\` is
on the PATH, otherwise in code-server on 127.0.0.1 (open the URL it prints). Ctrl+C stops it.

  --port N        code-server's port on 127.0.0.1 (default: a free one)
  --folder DIR    the folder to open (default: examples/)
  --data-dir DIR  where code-server keeps its settings, history and extensions link
                  (default: .cache/start/)
  --code-server   use code-server even where a desktop VS Code is installed
  --restricted    workspace trust on, so the folder opens as one whose authors you have not
                  trusted yet (answer the prompt with No): Restricted Mode, where only the
                  embedded sandbox is sent to (code-server only)
`;

class UsageError extends Error {}

/** @returns {{ port?: number, folder: string, dataDir: string, forceCodeServer: boolean, restricted: boolean, help: boolean }} */
function parseOptions(argv) {
  const options = {
    port: undefined,
    folder: path.join(REPO_ROOT, 'examples'),
    dataDir: path.join(REPO_ROOT, '.cache', 'start'),
    forceCodeServer: process.env.CARRIER_VSCODE_HOST === 'code-server',
    restricted: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    // Both `--port 8080` and `--port=8080`.
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '--port': {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--port must be a port number (1-65535)`);
        options.port = port;
        break;
      }
      case '--folder':
        options.folder = path.resolve(value());
        break;
      case '--data-dir':
        options.dataDir = path.resolve(value());
        break;
      case '--code-server':
        options.forceCodeServer = true;
        break;
      case '--restricted':
        options.restricted = true;
        break;
      case '-h':
      case '--help':
        options.help = true;
        break;
      default:
        throw new UsageError(`unknown option ${arg}`);
    }
  }
  return options;
}

module.exports = { REPO_ROOT, USAGE, UsageError, parseOptions };
