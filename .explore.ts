import * as fs from 'node:fs';
import { startSandbox } from './src/sandbox/server';
import { sendRequestFile } from './src/core/send';
import { sandboxEnvironment } from './src/core/environments';
(async () => {
  const sb = await startSandbox({ port: 0, host: '127.0.0.1' });
  try {
    for (const f of process.argv.slice(2)) {
      const text = fs.readFileSync(f, 'utf8');
      const x = await sendRequestFile({ text, fileName: f, environment: sandboxEnvironment(), resolveEmbedded: async () => sb.url });
      const parsed = JSON.stringify(x.parsed, (k, v) => (typeof v === 'string' && v.length > 200 ? v.slice(0, 40) + '…' : v), 1);
      console.log('==', f, x.reply?.status, x.fault ? JSON.stringify(x.fault) : '', '\n', parsed?.slice(0, 3000), '\nfindings', JSON.stringify(x.findings), '\ndocs', JSON.stringify(x.documents.map(d => ({ path: d.path, mt: d.mediaType, pages: d.pages, size: d.size }))));
    }
  } finally { await sb.close(); }
})();
