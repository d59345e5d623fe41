// `node -r runnerUsage.js <script> …`: when the process exits, writes its own CPU time and peak
// RSS as JSON to the file named by CARRIER_BENCH_USAGE. Plain JavaScript and preloaded, so the
// figures are the measured process's own (a parent sees neither) and nothing else is loaded.
const fs = require('node:fs');

const file = process.env.CARRIER_BENCH_USAGE;
if (file) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    // resourceUsage().maxRSS is in kilobytes.
    fs.writeFileSync(file, JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
  });
}
