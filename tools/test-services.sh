#!/usr/bin/env bash
# test-services.sh — real sshd and a one-node Slurm cluster for the remote
# tests, on 127.0.0.1 only, in a folder of their own.
#
#   tools/test-services.sh start DIR   # starts them; DIR/env says where they are
#   tools/test-services.sh stop DIR    # stops them by their own pids, removes DIR
#
# start makes, in DIR (which must not exist yet):
#   - a host key, a user key and an authorized_keys for that user key;
#   - sshd on 127.0.0.1 at a free port (sshd_config, sshd.pid, sshd.log);
#   - ssh_config with host aliases for the tests:
#       tl-test              the server, logged in with the user key
#       tl-test-unknown-key  the server, but its host key is not known
#       tl-test-no-auth      the server, with a key it does not accept
#       tl-test-password     the server on a second port that also offers
#                            password and keyboard-interactive logins
#                            (where ssh would ask for a password)
#       tl-test-unreachable  a port where nothing listens
#   - munged and a one-node Slurm cluster (slurmctld, slurmd) whose
#     slurm.conf is DIR/slurm/slurm.conf;
#   - DIR/env, a shell fragment: TL_TEST_SSH_CONFIG, TL_TEST_SLURM_CONF
#     (empty when Slurm did not come up), TL_TEST_SERVICES_DIR.
# A service whose package is missing is left out (its variable empty); the
# tests then skip what needs it.  Nothing is installed here: that is
# tools/install-deps.sh's job.  Needs root for sshd's privilege separation
# and for Slurm's daemons (the CI container is root).
set -uo pipefail

free_port () {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

wait_for () { # seconds, command…
  local n=$(( $1 * 10 )); shift
  for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}

host_block () { # alias port key known_hosts (uses $dir, $user)
  cat <<EOF
Host $1
  HostName 127.0.0.1
  Port $2
  User $user
  IdentitiesOnly yes
  IdentityFile $dir/$3
  UserKnownHostsFile $dir/$4
  StrictHostKeyChecking yes
  LogLevel ERROR
EOF
}

start_sshd () {
  local dir=$1
  command -v /usr/sbin/sshd >/dev/null || { echo "test-services: no sshd (openssh-server)" >&2; return 1; }
  mkdir -p /run/sshd
  chmod 0755 /run/sshd
  ssh-keygen -q -t ed25519 -N '' -C tl-test-host -f "$dir/host_key"
  ssh-keygen -q -t ed25519 -N '' -C tl-test-user -f "$dir/user_key"
  ssh-keygen -q -t ed25519 -N '' -C tl-test-stranger -f "$dir/stranger_key"
  cp "$dir/user_key.pub" "$dir/authorized_keys"
  chmod 0600 "$dir/authorized_keys"
  local port password_port dead_port user
  port=$(free_port)
  password_port=$(free_port)
  dead_port=$(free_port)
  user=$(id -un)
  cat > "$dir/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
Port $password_port
HostKey $dir/host_key
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
AllowUsers $user
MaxStartups 64
Match LocalPort $password_port
  PasswordAuthentication yes
  KbdInteractiveAuthentication yes
EOF
  /usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log" || return 1
  {
    echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$dir/host_key.pub")"
    echo "[127.0.0.1]:$password_port $(cut -d' ' -f1,2 "$dir/host_key.pub")"
  } > "$dir/known_hosts"
  : > "$dir/known_hosts_empty"
  # one block per alias, each complete (IdentityFile accumulates across
  # matching blocks, so a shared block would hand every alias the user key)
  {
    host_block tl-test "$port" user_key known_hosts
    host_block tl-test-unknown-key "$port" user_key known_hosts_empty
    host_block tl-test-no-auth "$port" stranger_key known_hosts
    host_block tl-test-password "$password_port" stranger_key known_hosts
    host_block tl-test-unreachable "$dead_port" user_key known_hosts
  } > "$dir/ssh_config"
  wait_for 10 ssh -F "$dir/ssh_config" -o BatchMode=yes tl-test true || {
    echo "test-services: sshd did not accept the test key (see $dir/sshd.log)" >&2
    return 1
  }
}

start_slurm () {
  local dir=$1/slurm
  command -v /usr/sbin/slurmctld >/dev/null && command -v /usr/sbin/munged >/dev/null || {
    echo "test-services: no slurm-wlm or munge" >&2; return 1; }
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  chmod 0700 "$dir/munge"
  head -c 1024 /dev/urandom > "$dir/munge/munge.key"
  chmod 0400 "$dir/munge/munge.key"
  /usr/sbin/munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" --force || return 1
  local host ctld_port d_port cpus
  host=$(hostname -s)
  ctld_port=$(free_port)
  d_port=$(free_port)
  cpus=$(nproc)
  cat > "$dir/slurm.conf" <<EOF
ClusterName=tltest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  /usr/sbin/slurmctld -f "$dir/slurm.conf" || return 1
  /usr/sbin/slurmd -f "$dir/slurm.conf" || return 1
  wait_for 30 bash -c "SLURM_CONF='$dir/slurm.conf' sinfo -h -o %T | grep -q idle" || {
    echo "test-services: the Slurm node did not come up (see $dir/*.log)" >&2
    return 1
  }
}

kill_pidfile () {
  local f=$1
  [ -s "$f" ] || return 0
  local pid
  pid=$(cat "$f")
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null
}

case "${1:-}" in
  start)
    dir=${2:?usage: test-services.sh start DIR}
    mkdir "$dir" || exit 1
    dir=$(cd "$dir" && pwd)
    ssh_config="" slurm_conf=""
    if start_sshd "$dir"; then ssh_config=$dir/ssh_config; fi
    if start_slurm "$dir"; then slurm_conf=$dir/slurm/slurm.conf; fi
    cat > "$dir/env" <<EOF
TL_TEST_SERVICES_DIR='$dir'
TL_TEST_SSH_CONFIG='$ssh_config'
TL_TEST_SLURM_CONF='$slurm_conf'
export TL_TEST_SERVICES_DIR TL_TEST_SSH_CONFIG TL_TEST_SLURM_CONF
EOF
    echo "test-services: sshd: ${ssh_config:-not running}; slurm: ${slurm_conf:-not running}"
    ;;
  stop)
    dir=${2:?usage: test-services.sh stop DIR}
    [ -d "$dir" ] || exit 0
    if [ -s "$dir/slurm/slurm.conf" ]; then
      SLURM_CONF=$dir/slurm/slurm.conf scancel --user="$(id -un)" 2>/dev/null
    fi
    kill_pidfile "$dir/slurm/slurmd.pid"
    kill_pidfile "$dir/slurm/slurmctld.pid"
    kill_pidfile "$dir/slurm/munge/munged.pid"
    kill_pidfile "$dir/sshd.pid"
    rm -rf "$dir"
    ;;
  *)
    echo "usage: test-services.sh start|stop DIR" >&2
    exit 2
    ;;
esac
