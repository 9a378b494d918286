// Runs graphile-worker for drover-bench, driven over stdin/stdout by GraphileWorkerSystem.
// Configuration comes as JSON in the BENCH_GRAPHILE environment variable.
// stdin:  "start" (run the workers), "stop" (drain and exit).
// stdout: "ready" once the schema is migrated, "running" once the workers run,
//         "s <seq>" when the no-op task <seq> starts, "stopped" before exiting.
"use strict";
const readline = require("readline");
const { Logger, run, runMigrations } = require("graphile-worker");

const config = JSON.parse(process.env.BENCH_GRAPHILE);
// stdout is the protocol: the worker's own log goes to stderr, warnings and errors only.
const logger = new Logger(() => (level, message) => {
  if (level === "error" || level === "warning") {
    process.stderr.write("graphile-worker " + level + ": " + message + "\n");
  }
});
const preset = { worker: { ...config.worker, logger } };

// Starts are written in one chunk per turn of the event loop: cheap at 100k jobs/s, and a lone
// start still leaves within the same turn.
let pending = [];
function reportStart(seq) {
  if (pending.length === 0) {
    setImmediate(() => {
      const lines = pending.map((s) => "s " + s + "\n").join("");
      pending = [];
      process.stdout.write(lines);
    });
  }
  pending.push(seq);
}

const taskList = {
  noop: async (payload) => {
    reportStart(payload.seq);
  },
};

let runner = null;

async function main() {
  await runMigrations({ preset });
  process.stdout.write("ready\n");
  const input = readline.createInterface({ input: process.stdin });
  for await (const line of input) {
    const command = line.trim();
    if (command === "start" && runner === null) {
      runner = await run({ preset, taskList, noHandleSignals: true });
      process.stdout.write("running\n");
    } else if (command === "stop") {
      break;
    }
  }
  if (runner !== null) {
    await runner.stop();
  }
  process.stdout.write("stopped\n");
  process.exit(0);
}

main().catch((e) => {
  process.stdout.write("error " + String(e && e.stack ? e.stack : e).replace(/\n/g, " | ") + "\n");
  process.exit(1);
});
