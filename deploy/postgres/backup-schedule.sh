#!/bin/sh
# The base backups of compose.yaml's database with pgBackRest (decisions 047 and 053), run by the
# `db-backup` service as the postgres user beside the `db` service, whose data folder, socket and
# repository volumes it shares; WAL archiving itself is the database's archive_command.
#
# At start: creates the stanza (a no-op when it exists: the first start of a new repository is
# the only one that writes it), checks that WAL reaches the repository (`pgbackrest check`), and
# makes a full backup when the repository holds none. Then, every day at BACKUP_TIME (UTC), a
# full backup on BACKUP_FULL_WEEKDAY and a differential one on the other days; pgBackRest expires
# old ones after each backup by the config's retention (repo1-retention-full). A failed backup is
# retried after BACKUP_RETRY_SECONDS; SIGTERM stops the wait or the backup at once (pgBackRest
# resumes an interrupted backup next time).
#
# Settings (environment): PGBACKREST_STANZA (site), BACKUP_TIME (02:30, UTC), BACKUP_FULL_WEEKDAY
# (7: date +%u, 1 Monday … 7 Sunday), BACKUP_RETRY_SECONDS (3600), BACKUP_START_ATTEMPTS (30, 10 s
# apart, before giving up and letting Docker restart the service), BACKUP_MAX_RUNS (0: for ever;
# a number stops after that many scheduled backups, for tests). Every pgBackRest option can be
# given as PGBACKREST_<OPTION> too (pgBackRest's own rule).
set -u

stanza=${PGBACKREST_STANZA:-site}
backup_time=${BACKUP_TIME:-02:30}
full_weekday=${BACKUP_FULL_WEEKDAY:-7}
retry_seconds=${BACKUP_RETRY_SECONDS:-3600}
start_attempts=${BACKUP_START_ATTEMPTS:-30}
max_runs=${BACKUP_MAX_RUNS:-0}

log() { printf '%s backup-schedule: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*"; }

fail_setting() {
  log "$1"
  exit 2
}
case $backup_time in
  [01][0-9]:[0-5][0-9] | 2[0-3]:[0-5][0-9]) ;;
  *) fail_setting "BACKUP_TIME=$backup_time: write the time as HH:MM (UTC), e.g. 02:30" ;;
esac
case $full_weekday in
  [1-7]) ;;
  *) fail_setting "BACKUP_FULL_WEEKDAY=$full_weekday: a day as date +%u gives it, 1 (Monday) to 7 (Sunday)" ;;
esac
for number in "$retry_seconds" "$start_attempts" "$max_runs"; do
  case $number in
    '' | *[!0-9]*) fail_setting "BACKUP_RETRY_SECONDS, BACKUP_START_ATTEMPTS and BACKUP_MAX_RUNS are whole numbers" ;;
  esac
done

# The command running in the background (pgBackRest or a sleep), so SIGTERM reaches it at once.
child=
on_term() {
  log "stopping"
  if [ -n "$child" ]; then
    kill -TERM "$child" 2>/dev/null
    wait "$child" 2>/dev/null
  fi
  exit 0
}
trap on_term TERM INT

# Runs a command in the background and waits for it: the shell runs its trap during `wait`.
run() {
  "$@" &
  child=$!
  wait "$child"
  status=$?
  child=
  return "$status"
}

pgbr() { run pgbackrest --stanza="$stanza" "$@"; }

# Seconds until the next BACKUP_TIME (today's if still ahead, else tomorrow's).
seconds_until_next() {
  now=$(date -u +%s)
  next=$(date -u -d "today $backup_time" +%s)
  if [ "$next" -le "$now" ]; then next=$(date -u -d "tomorrow $backup_time" +%s); fi
  echo $((next - now))
}

# The site's /metrics tells the newest backup's age from this table (decision 057). The database
# is PGDATABASE, as PGUSER; a failure to record is logged and the backup stands.
record() {
  if run psql -X -q -v ON_ERROR_STOP=1 \
    -c "insert into backup_runs (kind) values ('pgbackrest-$1')" >/dev/null; then
    log "$1 backup recorded in backup_runs"
  else
    log "could not record the $1 backup in backup_runs (exit $status)"
  fi
}

backup() {
  log "starting a $1 backup"
  if pgbr backup --type="$1"; then
    log "$1 backup done"
    record "$1"
    return 0
  fi
  log "the $1 backup FAILED (exit $status)"
  return 1
}

# The stanza, once the database answers (compose starts this service once db is healthy; a
# restarted database is waited for too).
attempt=1
until pgbr stanza-create; do
  if [ "$attempt" -ge "$start_attempts" ]; then
    log "stanza-create failed $attempt times: giving up (Docker restarts this service)"
    exit 1
  fi
  attempt=$((attempt + 1))
  run sleep 10
done
# WAL must reach the repository, or no backup could be restored to any point in time.
if ! pgbr check; then
  log "pgbackrest check FAILED: WAL does not reach the repository (see the database's archive_command)"
  exit 1
fi
log "stanza $stanza ready, WAL archiving checked"

runs=0
retry=
if ! pgbackrest --stanza="$stanza" info --output=json | grep -q '"type":"full"'; then
  backup full || retry=yes
fi

while :; do
  wait_seconds=$(seconds_until_next)
  if [ -n "$retry" ] && [ "$retry_seconds" -lt "$wait_seconds" ]; then wait_seconds=$retry_seconds; fi
  log "next backup in $wait_seconds s ($backup_time UTC, full on weekday $full_weekday)"
  run sleep "$wait_seconds"
  if [ "$(date -u +%u)" = "$full_weekday" ]; then type=full; else type=diff; fi
  if backup "$type"; then retry=; else retry=yes; fi
  runs=$((runs + 1))
  if [ "$max_runs" -gt 0 ] && [ "$runs" -ge "$max_runs" ]; then
    log "stopping after $runs scheduled backup(s) (BACKUP_MAX_RUNS)"
    exit 0
  fi
done
