#!/usr/bin/env bash
# Remove tilecam installed by deploy/install.sh. Games and configuration are KEPT unless --purge is given, so an
# uninstall followed by an install picks up where it left off.
#
#   sudo deploy/uninstall.sh            # remove the program, the service and the mDNS announcement
#   sudo deploy/uninstall.sh --purge    # … and delete /etc/tilecam, /var/lib/tilecam (every game!) and the user
#
# Takes the same path options as install.sh (--prefix, --config-dir, --data-dir, --unit-dir, --bin-link,
# --user), so that a test can remove what it installed into a temporary folder.
set -euo pipefail

PREFIX=/opt/tilecam
CONFIG_DIR=/etc/tilecam
DATA_DIR=/var/lib/tilecam
UNIT_DIR=/etc/systemd/system
BIN_LINK=/usr/local/bin/tilecam
AVAHI_DIR=/etc/avahi
SERVICE_USER=tilecam
DO_USER=1
DO_SYSTEMCTL=1
PURGE=0

usage() {
    cat <<EOF
Usage: sudo $0 [--purge] [options]

  --purge            also delete the configuration, the game database and the service user
  --prefix DIR       program folder (default: $PREFIX)
  --config-dir DIR   configuration folder (default: $CONFIG_DIR)
  --data-dir DIR     game database folder (default: $DATA_DIR)
  --unit-dir DIR     where the systemd unit is (default: $UNIT_DIR)
  --bin-link PATH    the link to the tilecam command, '' for none (default: $BIN_LINK)
  --user NAME        the service user (default: $SERVICE_USER)
  --no-user          there is no service user to remove
  --no-systemctl     do not stop or disable the service (no systemd here)
  -h, --help         this help
EOF
}

die() { echo "uninstall.sh: $*" >&2; exit 2; }
step() { echo "==> $*"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --purge) PURGE=1; shift ;;
        --prefix) PREFIX=${2:?}; shift 2 ;;
        --config-dir) CONFIG_DIR=${2:?}; shift 2 ;;
        --data-dir) DATA_DIR=${2:?}; shift 2 ;;
        --unit-dir) UNIT_DIR=${2:?}; shift 2 ;;
        --bin-link) BIN_LINK=${2?}; shift 2 ;;
        --user) SERVICE_USER=${2:?}; shift 2 ;;
        --no-user) DO_USER=0; shift ;;
        --no-systemctl) DO_SYSTEMCTL=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

if [ "$(id -u)" != 0 ] && { [ "$DO_USER" = 1 ] || [ "$DO_SYSTEMCTL" = 1 ]; }; then
    die "run as root (sudo), or pass --no-user --no-systemctl with folders you can write"
fi
# Refuse to delete a folder that is clearly not ours (an empty variable, /, /etc …).
for dir in "$PREFIX" "$CONFIG_DIR" "$DATA_DIR"; do
    case "$dir" in
        ""|/|/etc|/var|/var/lib|/opt|/usr|/usr/local|/home|/root) die "refusing to remove '$dir'" ;;
    esac
done

if [ "$DO_SYSTEMCTL" = 1 ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
    step "stopping and disabling tilecam.service"
    systemctl disable --now tilecam.service 2>/dev/null || true
fi
if [ -f "$UNIT_DIR/tilecam.service" ]; then
    step "removing $UNIT_DIR/tilecam.service"
    rm -f "$UNIT_DIR/tilecam.service"
    if [ "$DO_SYSTEMCTL" = 1 ] && [ -d /run/systemd/system ]; then
        systemctl daemon-reload
    fi
fi

step "removing the program $PREFIX"
rm -rf "$PREFIX"
if [ -n "$BIN_LINK" ] && [ -L "$BIN_LINK" ]; then
    rm -f "$BIN_LINK"
fi
# The avahi service announcement is ours; avahi's host-name= setting is left as it is (other tools may rely on
# the name now, and reverting it would need to know what it was before).
rm -f "$AVAHI_DIR/services/tilecam.service"

if [ "$PURGE" = 1 ]; then
    step "--purge: deleting the configuration $CONFIG_DIR and every game in $DATA_DIR"
    rm -rf "$CONFIG_DIR" "$DATA_DIR"
    if [ "$DO_USER" = 1 ] && getent passwd "$SERVICE_USER" >/dev/null; then
        step "removing the user $SERVICE_USER"
        userdel "$SERVICE_USER"
    fi
else
    echo "Kept: the configuration in $CONFIG_DIR and the games in $DATA_DIR (--purge deletes them)."
fi
echo "tilecam is uninstalled."
