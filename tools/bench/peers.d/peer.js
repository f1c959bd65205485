// tools/bench/peers.d/peer.js - the peers' side of tools/bench/peers, one
// mode per call; the packages come from NODE_PATH (the script's npm cache).
//   gw-fill DSN SCHEMA N        migrate graphile-worker, add N "bench" jobs
//   gw-work DSN SCHEMA          a worker with default options until SIGTERM
//   boss-setup DSN SCHEMA Q     migrate pg-boss, create queue Q
//   boss-send DSN SCHEMA Q GO MS  send({}) to Q for MS ms once file GO exists
'use strict';
const fs = require('node:fs');
const [mode, dsn, schema, arg, go, ms] = process.argv.slice(2);

async function gwFill() {
    const { makeWorkerUtils } = require('graphile-worker');
    const utils = await makeWorkerUtils({ connectionString: dsn, schema });
    await utils.migrate();
    for (let left = Number(arg); left > 0; left -= 10000) {
        const n = Math.min(left, 10000);
        await utils.addJobs(Array.from({ length: n }, () => ({ identifier: 'bench', payload: {} })));
    }
    await utils.release();
}

async function gwWork() {
    const { run } = require('graphile-worker');
    // Only the task list differs from the defaults; concurrency 1 is the
    // default, stated so that a reader sees one job at a time per process.
    await run({ connectionString: dsn, schema, concurrency: 1, taskList: { bench: async () => {} } });
    fs.writeSync(2, 'peer: ready\n');
}

async function boss(fn) {
    const PgBoss = require('pg-boss');
    const b = new PgBoss({ connectionString: dsn, schema });
    b.on('error', (e) => fs.writeSync(2, `peer: pg-boss: ${e.message}\n`));
    await b.start();
    await fn(b);
    await b.stop({ graceful: false, wait: true });
}

async function bossSend(b) {
    fs.writeSync(2, 'peer: ready\n');
    while (!fs.existsSync(go)) await new Promise((r) => setTimeout(r, 5));
    const t0 = process.hrtime.bigint(), end = t0 + BigInt(ms) * 1000000n;
    let n = 0, t;
    while ((t = process.hrtime.bigint()) < end) {
        await b.send(arg, {});
        n++;
    }
    console.log(`${n} ${Number(t - t0) / 1e9}`);
}

const modes = {
    'gw-fill': gwFill,
    'gw-work': gwWork,
    'boss-setup': () => boss((b) => b.createQueue(arg)),
    'boss-send': () => boss(bossSend),
};
if (!modes[mode]) {
    console.error(`peer.js: unknown mode ${mode}`);
    process.exit(64);
}
modes[mode]().catch((e) => {
    console.error(`peer.js ${mode}: ${e.stack || e}`);
    process.exit(1);
});
