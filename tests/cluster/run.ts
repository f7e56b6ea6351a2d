/**
 * npm run test:cluster / test:faults (see README and docs/decisions/023): the production build
 * run as several instances on PostgreSQL behind nginx, and the faults it must survive.
 *
 *   tsx tests/cluster/run.ts cluster   two instances + nginx: shared schema, sessions, rate
 *                                      limits, outbox, webhooks, page cache; webhook storm; SMTP down
 *   tsx tests/cluster/run.ts faults    SIGTERM under load; PostgreSQL restarted under load
 *   tsx tests/cluster/run.ts hostile   hostile input through nginx to the build (hostile-suite.ts)
 *   tsx tests/cluster/run.ts restore   backups restored for real: pgBackRest and PGlite (restore-suite.ts),
 *                                      and compose's backup schedule (backup-schedule-suite.ts)
 *   tsx tests/cluster/run.ts all       cluster and faults (sigterm or postgres: that fault alone)
 *
 * Each suite prints its figures; any failed check ends the run with exit code 1.
 */
import { backupScheduleSuite } from "./backup-schedule-suite";
import { clusterSuite } from "./cluster-suite";
import { figures, log, prepareBuild, removeFolder, tally } from "./harness";
import { hostileSuite } from "./hostile-suite";
import { postgresRestartSuite } from "./postgres-restart-suite";
import { embeddedRestoreSuite, postgresRestoreSuite } from "./restore-suite";
import { sigtermSuite } from "./sigterm-suite";

type Suite = (buildRoot: string) => Promise<void>;

const groups: Record<string, [string, Suite][]> = {
  cluster: [["cluster", clusterSuite]],
  faults: [
    ["SIGTERM under load", sigtermSuite],
    ["PostgreSQL restarted under load", postgresRestartSuite],
  ],
};
groups.hostile = [["hostile input through the front door", hostileSuite]];
groups.restore = [
  ["PostgreSQL: pgBackRest base backup under load, point-in-time restore", postgresRestoreSuite],
  ["embedded: db:backup under load, db:restore, bad input", embeddedRestoreSuite],
  ["compose's pgBackRest: stanza, WAL archive, scheduled backups", backupScheduleSuite],
];
groups.all = [...groups.cluster!, ...groups.faults!];
groups.sigterm = [groups.faults![0]!];
groups.postgres = [groups.faults![1]!];

async function main() {
  const which = process.argv[2] ?? "all";
  const suites = groups[which];
  if (!suites) throw new Error(`unknown group ${which}: cluster, faults, hostile, restore or all`);
  const started = performance.now();
  const buildRoot = prepareBuild();
  let failures = 0;
  try {
    for (const [name, suite] of suites) {
      const suiteStarted = performance.now();
      try {
        await suite(buildRoot);
        log(`✓ ${name} (${seconds(suiteStarted)} s)`);
      } catch (error) {
        failures++;
        log(
          `✗ ${name} (${seconds(suiteStarted)} s): ${error instanceof Error ? error.stack : String(error)}`,
        );
        log(`instance logs are kept in ${buildRoot}`);
      }
    }
  } finally {
    if (failures === 0) removeFolder(buildRoot);
  }
  figures["requests sent"] = tally.sent;
  figures["requests failed (an answer other than the one due, or none)"] = tally.failed;
  figures["runtime (s)"] = seconds(started);
  console.log("");
  for (const [name, value] of Object.entries(figures)) console.log(`  ${name}: ${value}`);
  const outcome = failures === 0 ? "passed" : `${failures} suite(s) failed`;
  // The line .ci/run's summary shows.
  console.log(
    `${which}: ${outcome} (${tally.sent} requests sent, ${tally.failed} failed, ${seconds(started)} s)`,
  );
  process.exit(failures === 0 ? 0 : 1);
}

function seconds(since: number) {
  return Math.round((performance.now() - since) / 100) / 10;
}

// Interrupted: exit through process.exit so the harness's exit hooks stop what it started.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
