#!/usr/bin/env bash
# A throwaway single-node SLURM cluster on this machine, run as the current user, for trying
# `warpsim sweep --executor slurm` and for tests/sweep/slurm_cluster_test.sh.
#
#   scripts/slurm/single-node-cluster.sh start DIR   start munged, slurmctld and slurmd; wait
#                                                    until the node is idle
#   scripts/slurm/single-node-cluster.sh env DIR     print what a shell needs: eval "$(... env DIR)"
#   scripts/slurm/single-node-cluster.sh stop DIR    cancel its jobs, stop the daemons
#
# Everything lives in DIR: the munge key, socket and logs, slurm.conf, the controller's state,
# slurmd's spool, pid and log files. Nothing in /etc, /run or /var is written, and the daemons
# use two free ports chosen at start (slurmd on 127.0.0.1 only), so several clusters (one per
# test) can run side by side. Both start and stop may be run twice. Debian's slurmd, slurmctld,
# slurm-client and munge packages provide the programs (scripts/install-deps.sh).
set -euo pipefail

me=single-node-cluster
die() {
  echo "$me: $*" >&2
  exit 1
}
usage() {
  echo "usage: $0 start|stop|env DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
action=$1
[[ -n $2 ]] || usage
if [[ $action == start ]]; then mkdir -p "$2" 2>/dev/null || die "cannot create $2"; fi
[[ -d $2 ]] || die "no cluster in $2 (no such directory)"
dir=$(cd "$2" && pwd)

conf=$dir/slurm.conf
socket=$dir/munge.socket
timeout_s=${SINGLE_NODE_CLUSTER_TIMEOUT:-60}  # for the node to become idle

need_programs() {
  local p
  for p in munged mungekey munge unmunge slurmctld slurmd sinfo squeue scancel; do
    command -v "$p" >/dev/null || PATH=$PATH:/usr/sbin:/sbin command -v "$p" >/dev/null ||
      die "$p not found: slurm or munge is not installed (run scripts/install-deps.sh)"
  done
  PATH=$PATH:/usr/sbin:/sbin
}

# alive NAME: the pid in DIR/NAME.pid, when that process runs and is this cluster's (its command
# line names DIR), so that a stale pid file never gets another process killed.
alive() {
  local pid
  pid=$(cat "$dir/$1.pid" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "$dir/" || return 1
  echo "$pid"
}

# running PID: the process exists and has not ended. An ended daemon whose parent is gone stays
# a zombie where pid 1 does not reap orphans (some containers): kill -0 would still find it.
running() {
  local state
  kill -0 "$1" 2>/dev/null || return 1
  state=$(sed 's/^.*) \(.\).*$/\1/' "/proc/$1/stat" 2>/dev/null) || return 0
  [[ $state != Z ]]
}

# wait_until SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds; status 1 on timeout.
wait_until() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

# stop_daemons SECONDS NAME...: TERM to each, then KILL to those still there after SECONDS.
stop_daemons() {
  local grace=$1 name pid pids=()
  shift
  for name in "$@"; do
    if pid=$(alive "$name"); then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
  done
  gone() {  # false while any is there
    for pid in "${pids[@]}"; do running "$pid" && return 1; done
    return 0
  }
  if [[ ${#pids[@]} -gt 0 ]] && ! wait_until "$grace" gone; then
    kill -KILL "${pids[@]}" 2>/dev/null || true
    wait_until 5 gone || true
  fi
  for name in "$@"; do rm -f "$dir/$name.pid"; done
}

tails() {
  local f
  for f in munged slurmctld slurmd; do
    [[ -s $dir/$f.log ]] || continue
    echo "--- last lines of $dir/$f.log:" >&2
    tail -n 15 "$dir/$f.log" >&2
  done
}

# ---- munge --------------------------------------------------------------------------------

munge_works() {
  munge -S "$socket" -n 2>/dev/null | unmunge -S "$socket" >/dev/null 2>&1
}

start_munge() {
  if alive munged >/dev/null && munge_works; then return 0; fi
  stop_daemons 10 munged
  if [[ ! -s $dir/munge.key ]]; then
    mungekey --create --keyfile="$dir/munge.key" >/dev/null 2>&1 ||
      dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
  fi
  chmod 600 "$dir/munge.key"
  rm -f "$socket" "$socket.lock"
  local force=()
  [[ $(id -u) -ne 0 ]] || force=(--force)  # munged refuses to run as root without it
  munged "${force[@]}" --socket="$socket" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" --num-threads=2 \
    >>"$dir/munged.log" 2>&1 </dev/null || { tails; die "munged did not start"; }
  wait_until 10 munge_works || { tails; die "munged does not answer on $socket"; }
}

# ---- slurm.conf ---------------------------------------------------------------------------

port_free() {
  if command -v ss >/dev/null; then
    [[ -z $(ss -Hltn "sport = :$1" 2>/dev/null) ]]
  else
    # Listening sockets (state 0A) on the port (in hex); tcp6 is missing without IPv6.
    local tables=(/proc/net/tcp)
    [[ ! -r /proc/net/tcp6 ]] || tables+=(/proc/net/tcp6)
    if awk -v p="$(printf '%04X' "$1")" '$4 == "0A" && $2 ~ ":" p "$" { f = 1 } END { exit !f }' \
      "${tables[@]}"; then
      return 1
    fi
  fi
}

# pick_port [EXCEPT]: a port that nothing listens on, from 10000..31999 (below Linux's ephemeral
# range, so that no client connection takes it meanwhile), at random so that clusters started at
# the same moment rarely pick the same one (a start that loses the race tries new ports).
pick_port() {
  local p _
  for _ in $(seq 100); do
    p=$((10000 + (RANDOM * 32768 + RANDOM) % 22000))
    [[ $p != "${1:-}" ]] && port_free "$p" && { echo "$p"; return 0; }
  done
  die "found no free port in 10000..31999"
}

write_conf() {
  local ctld_port slurmd_port user hw
  ctld_port=$(pick_port)
  slurmd_port=$(pick_port "$ctld_port")
  user=$(id -un)
  # "NodeName=host CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=4 ThreadsPerCore=2 RealMemory=31000"
  hw=$(slurmd -C 2>/dev/null | head -1 | sed 's/^NodeName=[^ ]* //')
  [[ $hw == *CPUs=*RealMemory=* ]] || die "'slurmd -C' did not describe this machine: $(slurmd -C 2>&1 | head -1)"
  mkdir -p "$dir/state" "$dir/spool"
  cat >"$conf.tmp" <<CONF
# A single-node cluster for trying warpsim sweeps (scripts/slurm/single-node-cluster.sh).
ClusterName=warpsim-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# slurmd listens on NodeAddr (127.0.0.1) only, not on every interface (slurmctld still does).
CommunicationParameters=NoInAddrAny
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
# The node's description below wins over what slurmd measures (no drain for a few MB less).
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 NodeHostname=localhost $hw State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  : >"$dir/plugstack.conf"  # no site SPANK plugins from /etc/slurm
  mv "$conf.tmp" "$conf"
}

# ---- slurm daemons ------------------------------------------------------------------------

node_state() {
  SLURM_CONF=$conf timeout 10 sinfo -h -N -n localhost -o %T 2>/dev/null
}
# The node takes jobs: idle, or busy with some (a '*' would mean slurmd is not responding).
node_ready() {
  [[ $(node_state) =~ ^(idle|mixed|allocated|completing)$ ]]
}
daemons_alive() {
  alive slurmctld >/dev/null && alive slurmd >/dev/null
}

# start_slurm: 0 when the node is ready; 1 when a daemon died (its log says why); 2 on timeout.
start_slurm() {
  alive slurmctld >/dev/null || SLURM_CONF=$conf slurmctld -f "$conf" </dev/null >>"$dir/slurmctld.log" 2>&1 || return 1
  alive slurmd >/dev/null || SLURM_CONF=$conf slurmd -f "$conf" -N localhost </dev/null >>"$dir/slurmd.log" 2>&1 || return 1
  local begin=$SECONDS
  while true; do
    sleep 0.2
    grep -qs "fatal:" "$dir/slurmctld.log" "$dir/slurmd.log" && return 1
    # A daemon writes its pid file soon after it starts; one that has gone has failed.
    if ((SECONDS > begin + 3)) && ! daemons_alive; then return 1; fi
    node_ready && return 0
    ((SECONDS < begin + timeout_s)) || return 2
  done
}

start() {
  need_programs
  # Unix socket paths are limited to 107 bytes (slurmd makes some in its spool directory).
  ((${#dir} <= 70)) || die "DIR is too long for the daemons' sockets (${#dir} > 70 characters): $dir"
  [[ $dir != *[[:space:]]* ]] || die "DIR may not contain whitespace (slurm.conf cannot quote it): $dir"
  start_munge
  if daemons_alive && node_ready; then
    echo "$me: already running ($conf)"
    return 0
  fi
  local status f _
  for _ in 1 2 3; do
    if ! daemons_alive; then
      stop_daemons 10 slurmd slurmctld
      write_conf  # fresh ports: the old ones may be taken now
      for f in slurmctld slurmd; do
        if [[ -f $dir/$f.log ]]; then mv -f "$dir/$f.log" "$dir/$f.log.prev"; fi
      done
    fi
    status=0
    start_slurm || status=$?
    if [[ $status -eq 0 ]]; then
      echo "$me: node localhost $(node_state) ($conf; SlurmctldPort $(sed -n 's/^SlurmctldPort=//p' "$conf"))"
      return 0
    fi
    # Another cluster took a port between the check and the bind: try new ones.
    if [[ $status -eq 1 ]] && grep -qs "Address already in use" "$dir/slurmctld.log" "$dir/slurmd.log"; then
      echo "$me: a port was taken meanwhile; trying others" >&2
      stop_daemons 1 slurmd slurmctld  # slurmd may wait 10 s for a controller that is not there
      continue
    fi
    break
  done
  tails
  if [[ $status -eq 2 ]]; then
    die "node localhost is not up after ${timeout_s} s (state: '$(node_state || true)'); see the logs above"
  fi
  die "slurmctld or slurmd did not start; see the logs above"
}

stop() {
  if alive slurmctld >/dev/null && [[ -f $conf ]]; then
    # Jobs first: their slurmstepd processes would outlive slurmd.
    SLURM_CONF=$conf timeout 10 scancel -u "$(id -un)" >/dev/null 2>&1 || true
    no_jobs() {
      local left
      left=$(SLURM_CONF=$conf timeout 10 squeue -h -o %i 2>/dev/null) && [[ -z $left ]]
    }
    wait_until 15 no_jobs || echo "$me: warning: jobs still running after scancel" >&2
  fi
  stop_daemons 10 slurmd slurmctld
  stop_daemons 10 munged  # last: the others talk to it until they have gone
  echo "$me: stopped ($dir)"
}

case $action in
  start) start ;;
  stop) stop ;;
  env)
    [[ -f $conf ]] || die "no cluster in $dir (run: $0 start $dir)"
    printf 'export SLURM_CONF=%q\n' "$conf"
    ;;
  *) usage ;;
esac
