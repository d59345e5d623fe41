import { loadRun, executePlan } from './src/core/runner';
import { createRunBackend } from './src/core/runner/wire';
(async () => {
  const plan = loadRun(['examples/collections/bill-of-lading-lifecycle'], { baseDir: process.cwd(), validate: (t, f) => require('./src/core/validation/validate').validateRequestText(t, f).findings });
  for (const t of plan.tests) console.log(t.name, t.dependsOn.map(d => d.split('/').pop()), plan.files.get(t.file)!.uses);
  const backend = createRunBackend({ cwd: process.cwd(), env: {} });
  const orig = backend.send.bind(backend);
  backend.send = (call) => { console.log('send', call.test.name, JSON.stringify(call.request.params).slice(0, 100)); return orig(call); };
  const r = await executePlan(plan, { backend });
  console.log(r.summary);
  await backend.close!();
})();
