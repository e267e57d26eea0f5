#!/usr/bin/env bash
# Install or upgrade tilecam as a service: Raspberry Pi OS Bookworm (64-bit) on a Pi 4 or 5 with its camera, or
# plain Debian 12 / Ubuntu on a laptop with a USB webcam.
#
#   sudo deploy/install.sh            # from a checkout or an unpacked release
#
# What it does, each step safe to repeat (re-running upgrades in place and keeps games and configuration):
#   1. apt: python3, python3-venv, python3-numpy, avahi-daemon, and python3-picamera2 where the archive has it
#   2. a system user `tilecam` in the groups video and gpio (those that exist)
#   3. a virtual environment in /opt/tilecam/venv that sees the system packages (so apt's picamera2 is importable),
#      and tilecam installed into it with pip, under deploy/constraints-pi.txt so pip never brings a numpy 2
#      that would break apt's picamera2/simplejpeg (built against Bookworm's numpy 1.24)
#   4. /etc/tilecam/config.toml (only if absent; the new defaults go to config.toml.example), data in
#      /var/lib/tilecam, a link /usr/local/bin/tilecam
#   5. the systemd unit tilecam.service (Type=notify, watchdog, hardening), enabled and (re)started
#   6. mDNS: avahi announces the machine as tilecam.local and the scoreboard as an _http._tcp service
#   7. `tilecam doctor` as the service user, to show what works and what to fix
#
# Run with --help for the options that let a test install into a temporary folder without root.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
PREFIX=/opt/tilecam
CONFIG_DIR=/etc/tilecam
DATA_DIR=/var/lib/tilecam
UNIT_DIR=/etc/systemd/system
BIN_LINK=/usr/local/bin/tilecam
AVAHI_DIR=/etc/avahi
SERVICE_USER=tilecam
MDNS_NAME=tilecam
PYTHON=python3
CONSTRAINTS=auto
DO_APT=1
DO_USER=1
DO_SYSTEMD=1
DO_SYSTEMCTL=1
DO_DOCTOR=1
DOCTOR_SOURCE=""

usage() {
    cat <<EOF
Usage: sudo $0 [options]

Install or upgrade tilecam as a systemd service. Re-running upgrades in place; games and config are kept.

  --source-dir DIR     the tilecam source tree to install (default: $SOURCE_DIR)
  --prefix DIR         program folder; the venv goes to DIR/venv (default: $PREFIX)
  --config-dir DIR     configuration folder (default: $CONFIG_DIR)
  --data-dir DIR       game database folder (default: $DATA_DIR)
  --unit-dir DIR       where the systemd unit goes (default: $UNIT_DIR)
  --bin-link PATH      link to the tilecam command, '' for none (default: $BIN_LINK)
  --user NAME          service user to create and run as (default: $SERVICE_USER)
  --no-user            create no user; the service runs as the user running this script
  --python PATH        interpreter for the venv (default: $PYTHON)
  --constraints FILE   pip constraints; 'auto' (default): deploy/constraints-pi.txt with numpy pinned to the
                       system's numpy when there is one; 'none': let pip choose
  --mdns-name NAME     name announced by avahi as NAME.local, '' to leave avahi alone (default: $MDNS_NAME)
  --no-apt             install no apt packages (they must be there already)
  --no-systemd         install no unit and touch no service
  --no-systemctl       write the unit but do not enable or start it (automatic where systemd is not running:
                       a chroot, a container)
  --no-doctor          do not run \`tilecam doctor\` at the end
  --doctor-source SRC  camera source for that doctor run (default: the config's)
  -h, --help           this help
EOF
}

die() { echo "install.sh: $*" >&2; exit 2; }
step() { echo "==> $*"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --source-dir) SOURCE_DIR=$(cd "${2:?}" && pwd); shift 2 ;;
        --prefix) PREFIX=${2:?}; shift 2 ;;
        --config-dir) CONFIG_DIR=${2:?}; shift 2 ;;
        --data-dir) DATA_DIR=${2:?}; shift 2 ;;
        --unit-dir) UNIT_DIR=${2:?}; shift 2 ;;
        --bin-link) BIN_LINK=${2?}; shift 2 ;;
        --user) SERVICE_USER=${2:?}; shift 2 ;;
        --no-user) DO_USER=0; shift ;;
        --python) PYTHON=${2:?}; shift 2 ;;
        --constraints) CONSTRAINTS=${2:?}; shift 2 ;;
        --mdns-name) MDNS_NAME=${2?}; shift 2 ;;
        --no-apt) DO_APT=0; shift ;;
        --no-systemd) DO_SYSTEMD=0; DO_SYSTEMCTL=0; shift ;;
        --no-systemctl) DO_SYSTEMCTL=0; shift ;;
        --no-doctor) DO_DOCTOR=0; shift ;;
        --doctor-source) DOCTOR_SOURCE=${2:?}; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

[ -f "$SOURCE_DIR/pyproject.toml" ] || die "$SOURCE_DIR is not a tilecam source tree (no pyproject.toml)"
if [ "$DO_USER" = 0 ]; then
    SERVICE_USER=$(id -un)
fi
if [ "$(id -u)" != 0 ] && { [ "$DO_APT" = 1 ] || [ "$DO_USER" = 1 ] || [ "$DO_SYSTEMCTL" = 1 ]; }; then
    die "run as root (sudo), or pass --no-apt --no-user --no-systemctl with folders you can write"
fi

VENV=$PREFIX/venv
CONFIG_FILE=$CONFIG_DIR/config.toml
# systemd is driven only on a machine it is running on (PID 1), not in a chroot or a container without it.
SYSTEMD_RUNNING=0
if [ "$DO_SYSTEMCTL" = 1 ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
    SYSTEMD_RUNNING=1
fi

# ------------------------------------------------------------------------------------------------ 1. apt
apt_has() { apt-cache show "$1" >/dev/null 2>&1; }

if [ "$DO_APT" = 1 ]; then
    step "apt packages"
    export DEBIAN_FRONTEND=noninteractive
    # Wait for the lock rather than fail: on a fresh Pi, unattended-upgrades often holds it for the first minutes.
    apt=(apt-get -q -o DPkg::Lock::Timeout=600)
    "${apt[@]}" update
    packages=(python3 python3-venv python3-pip python3-numpy ca-certificates)
    [ -n "$MDNS_NAME" ] && packages+=(avahi-daemon)
    # The Pi camera stack comes from the Raspberry Pi archive (Raspberry Pi OS); on Debian or Ubuntu it is absent
    # and a USB webcam is used through OpenCV instead. --no-install-recommends keeps the Qt preview stack out.
    if apt_has python3-picamera2; then
        packages+=(python3-picamera2)
    else
        echo "    python3-picamera2 is not in this apt archive (not Raspberry Pi OS): USB webcams only"
    fi
    # The clock buttons ([buttons] pins): gpiozero, with lgpio as its back end on a Pi 5. Only on a Pi.
    if grep -qs "Raspberry Pi" /proc/device-tree/model; then
        for pkg in python3-gpiozero python3-lgpio; do
            if apt_has "$pkg"; then packages+=("$pkg"); fi
        done
    fi
    "${apt[@]}" install -y --no-install-recommends "${packages[@]}"
fi

command -v "$PYTHON" >/dev/null || die "$PYTHON not found; install python3 (3.11 or newer)"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || die "$PYTHON is older than 3.11"
"$PYTHON" -c 'import venv, ensurepip' 2>/dev/null || die "$PYTHON cannot make a venv; install python3-venv"

# ------------------------------------------------------------------------------------------------ 2. user
if [ "$DO_USER" = 1 ]; then
    step "service user $SERVICE_USER"
    if ! getent passwd "$SERVICE_USER" >/dev/null; then
        useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "tilecam scorekeeper" "$SERVICE_USER"
    fi
    # video: the Pi camera (/dev/media*, /dev/video*, /dev/dma_heap) and USB webcams; gpio: the buttons.
    # render is not needed: vision runs on the CPU.
    for group in video gpio; do
        if getent group "$group" >/dev/null; then
            usermod -a -G "$group" "$SERVICE_USER"
        else
            echo "    no group $group on this system; skipped"
        fi
    done
fi

# ------------------------------------------------------------------------------------------------ stop
# An upgrade stops the running service first: pip must not swap files under a live process, and the doctor below
# needs the camera, which the service would be holding.
WAS_ACTIVE=0
if [ "$SYSTEMD_RUNNING" = 1 ] && systemctl is-active --quiet tilecam.service; then
    step "stopping the running tilecam service for the upgrade"
    WAS_ACTIVE=1
    systemctl stop tilecam.service
fi

# ------------------------------------------------------------------------------------------------ 3. venv
step "virtual environment $VENV"
if [ -x "$VENV/bin/python" ] && ! "$VENV/bin/python" -c 'import sys' 2>/dev/null; then
    echo "    the existing venv is broken (the system Python changed?); making it again"
    rm -rf "$VENV"
fi
if [ ! -x "$VENV/bin/python" ]; then
    mkdir -p "$PREFIX"
    # --system-site-packages: apt's picamera2 and libcamera bindings live in the system's dist-packages.
    "$PYTHON" -m venv --system-site-packages "$VENV"
elif ! grep -q '^include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
    sed -i 's/^include-system-site-packages = .*/include-system-site-packages = true/' "$VENV/pyvenv.cfg"
fi

# The constraints: the tested set for the Pi, with numpy pinned to the system's own numpy (the one apt's
# picamera2 and simplejpeg were built against), so pip keeps using it and never installs a second numpy.
PIP_CONSTRAINTS=()
WORK=$(mktemp -d)
# shellcheck disable=SC2329  # run by the EXIT trap below
on_exit() {
    local status=$?
    rm -rf "$WORK"
    # A failed upgrade must not leave the scorekeeper stopped: start the version that is there.
    if [ "$status" != 0 ] && [ "$WAS_ACTIVE" = 1 ]; then
        echo "install.sh failed; starting the tilecam service again" >&2
        systemctl start tilecam.service || true
    fi
}
trap on_exit EXIT
if [ "$CONSTRAINTS" = auto ]; then
    CONSTRAINTS=$WORK/constraints.txt
    system_numpy=$("$PYTHON" -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
    if [ -n "$system_numpy" ]; then
        grep -v '^numpy==' "$SOURCE_DIR/deploy/constraints-pi.txt" > "$CONSTRAINTS"
        echo "numpy==$system_numpy" >> "$CONSTRAINTS"
        tested=$(sed -n 's/^numpy==//p' "$SOURCE_DIR/deploy/constraints-pi.txt")
        if [ "$system_numpy" != "$tested" ]; then
            echo "    note: the system numpy is $system_numpy; deploy/constraints-pi.txt was tested with $tested"
        fi
    else
        # No system numpy (--no-apt on a bare system): pip brings its own; keep the tested OpenCV/onnxruntime.
        grep -v '^numpy==' "$SOURCE_DIR/deploy/constraints-pi.txt" > "$CONSTRAINTS"
    fi
fi
if [ "$CONSTRAINTS" != none ]; then
    [ -f "$CONSTRAINTS" ] || die "constraints file $CONSTRAINTS does not exist"
    PIP_CONSTRAINTS=(--constraint "$CONSTRAINTS")
fi

step "installing tilecam from $SOURCE_DIR"
# Build from a copy, so that a checkout owned by the user gets no root-owned build/ or *.egg-info folders.
mkdir -p "$WORK/src"
tar -C "$SOURCE_DIR" --exclude=./.venv --exclude=./.git --exclude=./build --exclude='*.egg-info' \
    --exclude=__pycache__ --exclude=.pytest_cache --exclude=.hypothesis --exclude=node_modules -cf - . \
    | tar -C "$WORK/src" -xf -
pip=("$VENV/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" wheel --quiet --no-deps --wheel-dir "$WORK/wheel" "$WORK/src"
wheel=$(ls "$WORK"/wheel/tilecam-*.whl)
"${pip[@]}" install --quiet --upgrade "${PIP_CONSTRAINTS[@]}" "$wheel"
# pip skips a wheel whose version is already installed; reinstall the package itself (not its dependencies) so
# that re-running the script from a newer checkout always installs the newer code.
"${pip[@]}" install --quiet --force-reinstall --no-deps "$wheel"
"$VENV/bin/python" -c 'import tilecam.firmware.cli' || die "tilecam does not import in $VENV"

mkdir -p "$PREFIX/doc"
for doc in INSTALL.md CAMERA.md; do
    if [ -f "$SOURCE_DIR/docs/$doc" ]; then
        install -m 0644 "$SOURCE_DIR/docs/$doc" "$PREFIX/doc/$doc"
    fi
done

# ------------------------------------------------------------------------------------------------ 4. config, data
step "configuration $CONFIG_DIR, data $DATA_DIR"
install -d -m 0755 "$CONFIG_DIR"
sed "s#^data_dir = .*#data_dir = \"$DATA_DIR\"#" "$SOURCE_DIR/deploy/config.toml" > "$WORK/config.toml"
install -m 0644 "$WORK/config.toml" "$CONFIG_DIR/config.toml.example"
if [ -f "$CONFIG_DIR/config.toml" ]; then
    echo "    keeping the existing $CONFIG_FILE (new defaults: config.toml.example)"
else
    install -m 0644 "$WORK/config.toml" "$CONFIG_DIR/config.toml"
fi
install -d -m 0750 "$DATA_DIR"
if [ "$DO_USER" = 1 ]; then
    chown -R "$SERVICE_USER:$SERVICE_USER" "$DATA_DIR"
fi
if [ -n "$BIN_LINK" ]; then
    mkdir -p "$(dirname "$BIN_LINK")"
    ln -sfn "$VENV/bin/tilecam" "$BIN_LINK"
fi

# ------------------------------------------------------------------------------------------------ 5. systemd
if [ "$DO_SYSTEMD" = 1 ]; then
    step "systemd unit $UNIT_DIR/tilecam.service"
    mkdir -p "$UNIT_DIR"
    sed -e "s#@PREFIX@#$PREFIX#g" -e "s#@VENV@#$VENV#g" -e "s#@CONFIG_FILE@#$CONFIG_FILE#g" \
        -e "s#@DATA_DIR@#$DATA_DIR#g" -e "s#@USER@#$SERVICE_USER#g" \
        "$SOURCE_DIR/deploy/tilecam.service" > "$WORK/tilecam.service"
    install -m 0644 "$WORK/tilecam.service" "$UNIT_DIR/tilecam.service"
else
    echo "==> systemd skipped (--no-systemd): no unit installed, no service started"
fi

# ------------------------------------------------------------------------------------------------ 6. mDNS
if [ -n "$MDNS_NAME" ] && [ -d "$AVAHI_DIR" ]; then
    step "mDNS: $MDNS_NAME.local via avahi"
    conf=$AVAHI_DIR/avahi-daemon.conf
    # avahi announces host-name= instead of the system's hostname: the Pi stays `raspberrypi` for everything else.
    if [ -f "$conf" ] && ! grep -q "^host-name=$MDNS_NAME\$" "$conf"; then
        if grep -q '^#\?host-name=' "$conf"; then
            sed -i "s/^#\\?host-name=.*/host-name=$MDNS_NAME/" "$conf"
        else
            sed -i "s/^\\[server\\]\$/[server]\\nhost-name=$MDNS_NAME/" "$conf"
        fi
    fi
    port=$(sed -n 's/^port = \([0-9]*\).*/\1/p' "$CONFIG_DIR/config.toml" | head -n 1)
    mkdir -p "$AVAHI_DIR/services"
    cat > "$AVAHI_DIR/services/tilecam.service" <<EOF
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- Written by tilecam's deploy/install.sh: the scoreboard, for phones and laptops that browse for it. -->
<service-group>
  <name replace-wildcards="yes">tilecam scoreboard on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>${port:-8000}</port>
  </service>
</service-group>
EOF
    if [ "$SYSTEMD_RUNNING" = 1 ]; then
        systemctl restart avahi-daemon.service || echo "    avahi-daemon did not restart; .local names may not work"
    fi
elif [ -n "$MDNS_NAME" ]; then
    echo "==> mDNS skipped: avahi is not installed ($AVAHI_DIR missing); phones use the IP address in the QR code"
fi

# ------------------------------------------------------------------------------------------------ 7. doctor
DOCTOR_STATUS=0
if [ "$DO_DOCTOR" = 1 ]; then
    step "tilecam doctor"
    doctor=("$VENV/bin/tilecam" doctor --config "$CONFIG_FILE")
    [ -n "$DOCTOR_SOURCE" ] && doctor+=(--source "$DOCTOR_SOURCE")
    if [ "$DO_USER" = 1 ] && [ "$(id -un)" != "$SERVICE_USER" ]; then
        doctor=(runuser -u "$SERVICE_USER" -- "${doctor[@]}")
    fi
    "${doctor[@]}" || DOCTOR_STATUS=$?
fi

if [ "$SYSTEMD_RUNNING" = 1 ]; then
    step "enabling and starting tilecam.service"
    systemctl daemon-reload
    systemctl enable tilecam.service
    systemctl restart tilecam.service
    [ "$WAS_ACTIVE" = 1 ] && echo "    upgraded in place; games and $CONFIG_FILE kept"
elif [ "$DO_SYSTEMD" = 1 ] && [ "$DO_SYSTEMCTL" = 0 ]; then
    echo "==> --no-systemctl: the unit is written but not enabled or started."
elif [ "$DO_SYSTEMD" = 1 ]; then
    echo "==> systemd is not running here (a chroot or a container): the unit is written but not enabled."
    echo "    On the real machine: sudo systemctl daemon-reload && sudo systemctl enable --now tilecam"
fi

echo
echo "tilecam is installed in $VENV; configuration $CONFIG_FILE; games in $DATA_DIR."
if [ -n "$MDNS_NAME" ]; then
    echo "Scoreboard: http://$MDNS_NAME.local:${port:-8000}/ (or the address shown by \`tilecam doctor\`)."
fi
if [ "$DOCTOR_STATUS" != 0 ]; then
    echo "tilecam doctor found problems (above); fix them, then: sudo systemctl restart tilecam" >&2
fi
exit 0
