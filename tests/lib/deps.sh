# shellcheck shell=bash
# tests/lib/deps.sh - install missing Debian packages; sourced by tests/run and
# tools/quickstart (not executed on its own).
#
#   lq_missing_packages PKG...   print the packages that are not installed
#   lq_ensure_packages PKG...    apt-get install the missing ones, if any
#
# Rules: dpkg-query decides what is missing; `apt-get update` runs at most once
# per process and only when something must be installed; installs are
# non-interactive and never start system services (a policy-rc.d that denies
# every start is put in place for the duration of the install when the machine
# has none); root runs apt-get itself, anybody else needs sudo, else the
# function fails with a message that names the packages.

lq__deps_log() {
    printf '%s\n' "deps: $*" >&2
}

# Print, one per line, each package of "$@" that is not fully installed.
lq_missing_packages() {
    local p status
    for p in "$@"; do
        status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
        # "ii " = wanted install, installed, no error flag.
        if [[ "$status" != "ii"* ]]; then
            printf '%s\n' "$p"
        fi
    done
}

LQ__APT_UPDATED=${LQ__APT_UPDATED:-0}

# Run a command up to three times (mirrors and locks are sometimes flaky).
lq__retry() {
    local try
    for try in 1 2 3; do
        if "$@"; then
            return 0
        fi
        if [[ $try -lt 3 ]]; then
            lq__deps_log "'$*' failed (try $try of 3), retrying in $((try * 5)) s"
            sleep $((try * 5))
        fi
    done
    return 1
}

lq_ensure_packages() {
    local -a missing sudo_cmd
    if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
        # Not a Debian-like system: we cannot check or install; let the build
        # report what is really missing.
        lq__deps_log "dpkg-query/apt-get not found: not a Debian system, skipping package checks"
        return 0
    fi
    mapfile -t missing < <(lq_missing_packages "$@")
    if [[ ${#missing[@]} -eq 0 ]]; then
        lq__deps_log "all ${#} required packages are installed"
        return 0
    fi
    lq__deps_log "missing packages: ${missing[*]}"

    sudo_cmd=()
    if [[ $(id -u) -ne 0 ]]; then
        if ! command -v sudo >/dev/null 2>&1; then
            lq__deps_log "error: not root and sudo is not available; install them yourself:"
            lq__deps_log "  apt-get update && apt-get install ${missing[*]}"
            return 1
        fi
        if [[ -t 0 ]]; then
            sudo_cmd=(sudo)
        else
            # No terminal to ask for a password on: fail fast instead of hanging.
            sudo_cmd=(sudo -n)
        fi
        lq__deps_log "not root: using ${sudo_cmd[*]}"
    fi

    # Keep package scripts from starting services (postgresql, mariadb,
    # lighttpd) on the machine: the tests run their own throwaway servers.
    local policy=/usr/sbin/policy-rc.d created_policy=0
    if [[ ! -e "$policy" ]]; then
        if printf '#!/bin/sh\n# leaseq deps.sh: no service starts during package installs\nexit 101\n' |
            "${sudo_cmd[@]}" tee "$policy" >/dev/null &&
            "${sudo_cmd[@]}" chmod 755 "$policy"; then
            created_policy=1
        else
            lq__deps_log "warning: could not create $policy; services may start during install"
        fi
    fi

    local rc=0
    local -a apt=("${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0
        -o DPkg::Lock::Timeout=300
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
    if [[ "$LQ__APT_UPDATED" != 1 ]]; then
        lq__deps_log "apt-get update"
        if lq__retry "${apt[@]}" update >&2; then
            LQ__APT_UPDATED=1
        else
            lq__deps_log "error: apt-get update failed"
            rc=1
        fi
    fi
    if [[ $rc -eq 0 ]]; then
        lq__deps_log "apt-get install ${missing[*]}"
        if ! lq__retry "${apt[@]}" install --no-install-recommends "${missing[@]}" >&2; then
            lq__deps_log "error: apt-get install failed"
            rc=1
        fi
    fi
    if [[ $created_policy -eq 1 ]]; then
        "${sudo_cmd[@]}" rm -f "$policy" || true
    fi
    if [[ $rc -eq 0 ]]; then
        mapfile -t missing < <(lq_missing_packages "$@")
        if [[ ${#missing[@]} -ne 0 ]]; then
            lq__deps_log "error: still missing after install: ${missing[*]}"
            rc=1
        fi
    fi
    return $rc
}
