// What `npm start` and ensure-code-server.js say while a step runs: a line per step with its
// elapsed seconds, and while a long one runs (code-server's install takes minutes on a busy
// 2-core machine) a sign of life. On a terminal the line is redrawn in place each second; in a
// log (CI, a pipe) a plain line every `every` seconds, so nothing is overwritten or garbled.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');

/**
 * @param {{ write: (text: string) => unknown, isTTY?: boolean }} stream
 * @param {{ prefix?: string, now?: () => number, every?: number, setInterval?: typeof setInterval, clearInterval?: typeof clearInterval }} [options]
 */
function createProgress(stream, options = {}) {
  const prefix = options.prefix ?? '';
  const now = options.now ?? Date.now;
  const every = options.every ?? 10;
  const tick = options.setInterval ?? setInterval;
  const untick = options.clearInterval ?? clearInterval;
  const seconds = (ms) => Math.round(ms / 1000);

  /**
   * Starts a step: `title` now, then while it runs the seconds so far; `done(note)` ends it with
   * its time, `fail()` with its time too.
   */
  function step(title) {
    const started = now();
    let timer;
    let lastPlain = 0;
    if (stream.isTTY) {
      const draw = () => stream.write(`\r\x1b[2K${prefix}${title} … ${seconds(now() - started)} s`);
      draw();
      timer = tick(draw, 1000);
    } else {
      stream.write(`${prefix}${title} …\n`);
      timer = tick(() => {
        const s = seconds(now() - started);
        if (s - lastPlain < every) return;
        lastPlain = s;
        stream.write(`${prefix}  … ${title}: ${s} s\n`);
      }, 1000);
    }
    const end = (word, note) => {
      untick(timer);
      const line = `${prefix}${title}: ${word} in ${seconds(now() - started)} s${note ? ` (${note})` : ''}`;
      stream.write(stream.isTTY ? `\r\x1b[2K${line}\n` : `${line}\n`);
    };
    return {
      done: (note) => end('done', note),
      fail: (note) => end('failed', note),
    };
  }

  /** Runs `work` (a promise-returning function) as a step. */
  async function around(title, work) {
    const s = step(title);
    try {
      const result = await work();
      s.done();
      return result;
    } catch (err) {
      s.fail();
      throw err;
    }
  }

  /**
   * Runs a command as a step, its own output kept in `logFile` (appended), and shown, the last
   * lines of it, only when it fails: the progress line stays readable while npm or apt talk.
   */
  function run(title, command, args, spawnOptions = {}, logFile) {
    return around(title, () => runQuietly(command, args, spawnOptions, logFile));
  }

  return { step, around, run };
}

function runQuietly(command, args, spawnOptions, logFile) {
  return new Promise((resolve, reject) => {
    const out = [];
    const child = spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk) => out.push(chunk);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const text = Buffer.concat(out).toString('utf8');
      if (logFile) fs.appendFileSync(logFile, `$ ${command} ${args.join(' ')}\n${text}\n`);
      if (code === 0) return resolve(text);
      const tail = text.trimEnd().split('\n').slice(-30).join('\n');
      reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}${logFile ? ` (all of it in ${logFile})` : ''}:\n${tail}`));
    });
  });
}

module.exports = { createProgress };
