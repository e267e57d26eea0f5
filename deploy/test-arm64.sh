#!/usr/bin/env bash
# Prove the Raspberry Pi install on 64-bit ARM without a Pi: an emulated Debian bookworm arm64 (qemu-user +
# binfmt_misc + debootstrap) in which deploy/install.sh runs for real (apt, user, venv, pip, config, unit; only
# systemctl is skipped, since systemd does not run in a chroot), then `tilecam doctor`, `tilecam read` on a real
# photo and `tilecam gcg verify` on the shared games, each compared with the same command on this (x86) machine.
#
#   sudo deploy/test-arm64.sh [--root DIR] [--cpu cortex-a72] [--mirror URL] [--shared DIR] [--keep-mounts]
#
# Slow (debootstrap ~6 min the first time, the root is reused after that; the install ~10 min under emulation):
# run by hand, not in CI. Results and timings go to docs/BENCHMARKS.md ("Deploy on arm64").
#
# The emulated CPU is a Cortex-A72 (the Pi 4's) by default, the oldest core we support: a wheel built for newer
# instructions would die with SIGILL here rather than on someone's Pi 4. The model is also run on a Cortex-A76
# (the Pi 5's).
# Several functions below are run through `timed` (indirectly), which shellcheck cannot see.
# shellcheck disable=SC2329
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
ROOT=/var/tmp/tilecam-arm64
CPU=cortex-a72
SHARED=$(cd "$SOURCE_DIR/.." && pwd)/shared
MIRROR=""
KEEP_MOUNTS=0
HOST_TILECAM=${HOST_TILECAM:-$SOURCE_DIR/.venv/bin/tilecam}

while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2:?}; shift 2 ;;
        --cpu) CPU=${2:?}; shift 2 ;;
        --mirror) MIRROR=${2:?}; shift 2 ;;
        --shared) SHARED=${2:?}; shift 2 ;;
        --keep-mounts) KEEP_MOUNTS=1; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "test-arm64.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

[ "$(id -u)" = 0 ] || { echo "test-arm64.sh: run as root (binfmt_misc, debootstrap, chroot)" >&2; exit 2; }
case "$ROOT" in "$SOURCE_DIR"/*) echo "test-arm64.sh: keep --root outside the repository" >&2; exit 2 ;; esac

declare -a RESULTS=()
T0=$(date +%s)
timed() {  # timed LABEL CMD…: run, record "label | seconds | status"
    local label=$1; shift
    local start end status=0
    start=$(date +%s.%N)
    "$@" || status=$?
    end=$(date +%s.%N)
    RESULTS+=("$(printf '%s | %.0f s | %s' "$label" "$(echo "$end - $start" | bc)" \
        "$([ "$status" = 0 ] && echo ok || echo "FAILED ($status)")")")
    return 0
}
say() { echo; echo "=== $* ($(($(date +%s) - T0)) s)"; }

# ------------------------------------------------------------------------------------ host tools and binfmt
need=()
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v bc >/dev/null || need+=(bc)
if [ ${#need[@]} -gt 0 ]; then
    say "apt-get install ${need[*]}"
    apt-get install -y -q "${need[@]}" || { apt-get update -q && apt-get install -y -q "${need[@]}"; }
fi
if ! mountpoint -q /proc/sys/fs/binfmt_misc; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    # The F flag in Debian's line makes the kernel open the interpreter now, so it works inside the chroot too.
    cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
fi

if [ -z "$MIRROR" ]; then
    # The machine's own Debian mirror (deb822 sources or the classic list).
    MIRROR=$(sed -n 's/^URIs: *\([^ ]*debian\/*\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
    [ -n "$MIRROR" ] || MIRROR=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
    [ -n "$MIRROR" ] || MIRROR=http://deb.debian.org/debian
fi

# ------------------------------------------------------------------------------------ the arm64 root
if [ ! -x "$ROOT/usr/bin/python3" ]; then
    say "debootstrap bookworm arm64 into $ROOT from $MIRROR"
    timed "debootstrap --arch=arm64 --variant=minbase bookworm" \
        debootstrap --arch=arm64 --variant=minbase --include=python3,python3-venv,python3-pip,ca-certificates \
        bookworm "$ROOT" "$MIRROR"
fi
security=${MIRROR%/debian*}/debian-security
cat > "$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $security bookworm-security main
EOF

MOUNTED=()
cleanup() {
    local i
    if [ "$KEEP_MOUNTS" = 0 ]; then
        for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do umount "${MOUNTED[i]}" || true; done
    fi
}
trap cleanup EXIT
for d in proc sys dev dev/pts; do
    if ! mountpoint -q "$ROOT/$d"; then
        mount --bind "/$d" "$ROOT/$d"
        MOUNTED+=("$ROOT/$d")
    fi
done
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# This machine reaches the package index through a TLS proxy whose CA is in its bundle; the arm64 root's own
# bundle lacks it, so pip inside uses a copy of this one.
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/host-ca-bundle.crt"
BUNDLE=/etc/ssl/certs/host-ca-bundle.crt

# qemu-user 7.2 passes the host's /proc/cpuinfo through: an x86 one, which onnxruntime's cpuinfo library cannot
# parse on arm64 — it segfaults on import. A real Pi's /proc/cpuinfo is laid over it instead (one entry per host
# CPU, since /sys says how many there are), matching the emulated core: what onnxruntime sees on a Pi 4 or 5.
cpuinfo_for() {
    local cpu=$1 n part variant revision features hardware
    case "$cpu" in
        cortex-a72) part=0xd08; variant=0x0; revision=3; features="fp asimd evtstrm crc32 cpuid"
                    hardware=$'Hardware\t: BCM2835\nRevision\t: b03114\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4' ;;
        cortex-a76) part=0xd0b; variant=0x4; revision=1
                    features="fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp"
                    hardware=$'Revision\t: c04170\nModel\t\t: Raspberry Pi 5 Model B Rev 1.0' ;;
        *) echo "no /proc/cpuinfo known for $cpu" >&2; return 1 ;;
    esac
    for ((n = 0; n < $(nproc --all); n++)); do
        printf 'processor\t: %d\nBogoMIPS\t: 108.00\nFeatures\t: %s\nCPU implementer\t: 0x41\n' "$n" "$features"
        printf 'CPU architecture: 8\nCPU variant\t: %s\nCPU part\t: %s\nCPU revision\t: %s\n\n' "$variant" "$part" "$revision"
    done
    echo "$hardware"
}
CPUINFO_FILE=$ROOT.cpuinfo  # beside the root, not in it; rewritten in place, so the bind mount follows
CPUINFO_MOUNTED=0
use_cpu() {  # emulate CPU $1 from now on: QEMU_CPU for qemu, and the matching /proc/cpuinfo
    CPU=$1
    cpuinfo_for "$CPU" > "$CPUINFO_FILE"
    if [ "$CPUINFO_MOUNTED" = 0 ]; then
        # A mount left by an earlier run (--keep-mounts) may show another file: replace it.
        while grep -q " $ROOT/proc/cpuinfo " /proc/mounts; do umount "$ROOT/proc/cpuinfo"; done
        mount --bind "$CPUINFO_FILE" "$ROOT/proc/cpuinfo"
        MOUNTED+=("$ROOT/proc/cpuinfo")
        CPUINFO_MOUNTED=1
    fi
}
use_cpu "$CPU"

# The source tree as a release would ship it, and the shared test data.
say "copying the source tree and the shared data into $ROOT"
rm -rf "$ROOT/opt/src/tilecam"
mkdir -p "$ROOT/opt/src/tilecam" "$ROOT/srv/shared"
tar -C "$SOURCE_DIR" --exclude=./.venv --exclude=./.git --exclude=./build --exclude='*.egg-info' \
    --exclude=__pycache__ --exclude=.pytest_cache --exclude=.hypothesis -cf - . | tar -C "$ROOT/opt/src/tilecam" -xf -
if [ -d "$SHARED/data" ]; then
    rm -rf "$ROOT/srv/shared/data"
    cp -a "$SHARED/data" "$ROOT/srv/shared/data"
fi

# Run a command inside the root with a clean environment: the host's REQUESTS_CA_BUNDLE/CURL_CA_BUNDLE would name
# the root's own bundle (without the proxy CA) and override pip's --cert.
inside() {
    chroot "$ROOT" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 QEMU_CPU="$CPU" PIP_CERT="$BUNDLE" REQUESTS_CA_BUNDLE="$BUNDLE" SSL_CERT_FILE="$BUNDLE" \
        PIP_DEFAULT_TIMEOUT=180 PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"
}
as_service() { inside runuser -u tilecam -- "$@"; }

OUT=$ROOT/tmp/tilecam-test
rm -rf "$OUT"
mkdir -p "$OUT"
say "uname inside: $(inside uname -m), emulated CPU $CPU"

# ------------------------------------------------------------------------------------ install (twice: upgrade)
if [ "${SKIP_INSTALL:-0}" = 1 ] && [ -x "$ROOT/opt/tilecam/venv/bin/tilecam" ]; then
    say "SKIP_INSTALL=1: reinstalling only the tilecam package into the existing venv"
    timed "pip install of the current source (SKIP_INSTALL=1)" \
        inside /opt/src/tilecam/deploy/install.sh --no-apt --no-doctor --mdns-name ''
else
    if [ -e "$ROOT/opt/tilecam" ] || [ -e "$ROOT/etc/tilecam" ]; then
        say "deploy/uninstall.sh --purge: start from a root without tilecam (apt packages stay)"
        timed "uninstall.sh --purge of the previous run's install" \
            inside /opt/src/tilecam/deploy/uninstall.sh --purge --no-systemctl
        timed "nothing of tilecam left after --purge" \
            bash -c "! ls -d '$ROOT/opt/tilecam' '$ROOT/etc/tilecam' '$ROOT/var/lib/tilecam' 2>/dev/null"
    fi
    say "deploy/install.sh inside the arm64 root (first install)"
    timed "install.sh, first run (apt, user, venv, pip)" \
        inside /opt/src/tilecam/deploy/install.sh --doctor-source demo
    echo "# edited by test-arm64.sh" >> "$ROOT/etc/tilecam/config.toml"
    say "deploy/install.sh again (an upgrade in place must keep the config)"
    timed "install.sh, second run (upgrade in place)" \
        inside /opt/src/tilecam/deploy/install.sh --doctor-source demo
    timed "config kept across the upgrade" grep -q '^# edited by test-arm64.sh' "$ROOT/etc/tilecam/config.toml"
fi
versions() {
    inside /opt/tilecam/venv/bin/python -c 'import numpy, cv2, onnxruntime, sys
print("python", sys.version.split()[0], "numpy", numpy.__version__, numpy.__file__, "opencv", cv2.__version__,
      "onnxruntime", onnxruntime.__version__)' > "$OUT/versions.txt" 2>&1
    local status=$?
    cat "$OUT/versions.txt"
    return "$status"
}
timed "numpy, OpenCV and onnxruntime import in the venv" versions
timed "venv uses apt's numpy 1.24.2 (no second numpy in the venv)" \
    grep -q 'numpy 1.24.2 /usr/lib/python3/dist-packages/numpy' "$OUT/versions.txt"

# ------------------------------------------------------------------------------------ doctor
run_doctor() {
    local status=0
    as_service tilecam doctor --config /etc/tilecam/config.toml --source demo > "$OUT/doctor.txt" 2>&1 || status=$?
    cat "$OUT/doctor.txt"
    return "$status"
}
say "tilecam doctor --source demo (as the service user)"
timed "tilecam doctor --source demo" run_doctor

# ------------------------------------------------------------------------------------ onnxruntime on Pi 4 and 5 cores
# The shipped tile model when it is built, else a small CNN made here: the same input through onnxruntime on x86
# (numpy 2) and on arm64 (apt's numpy 1.24) must give the same probabilities.
HOST_PYTHON=$(dirname "$HOST_TILECAM")/python
make_model_case() {
    "$HOST_PYTHON" - "$SOURCE_DIR/models/tiles.onnx" "$OUT" <<'PY'
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort

model, out = Path(sys.argv[1]), Path(sys.argv[2])
if not model.is_file():
    import onnx
    from onnx import TensorProto, helper

    rng = np.random.default_rng(7)
    w1 = rng.normal(0, 0.2, (16, 3, 3, 3)).astype(np.float32)
    w2 = rng.normal(0, 0.2, (31, 16)).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("GlobalAveragePool", ["r"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"]),
             helper.make_node("MatMul", ["f", "w2t"], ["m"]),
             helper.make_node("Softmax", ["m"], ["p"], axis=1)]
    graph = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3, 32, 32])],
                              [helper.make_tensor_value_info("p", TensorProto.FLOAT, [None, 31])],
                              [helper.make_tensor("w1", TensorProto.FLOAT, w1.shape, w1.ravel()),
                               helper.make_tensor("w2t", TensorProto.FLOAT, (16, 31), w2.T.ravel())])
    model = out / "tiny.onnx"
    # IR version 8 (ONNX 1.10+): loads in every onnxruntime since 1.10; the newest onnx writes an IR version
    # newer than some onnxruntime releases accept.
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), model)
session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
inp = session.get_inputs()[0]
shape = [d if isinstance(d, int) else 225 for d in inp.shape]
rng = np.random.default_rng(1)
x = rng.integers(0, 256, shape).astype(np.uint8 if "uint8" in inp.type else np.float32)
if x.dtype == np.float32:
    x /= 255
np.save(out / "model-input.npy", x)
np.save(out / "model-x86.npy", session.run(None, {inp.name: x})[0])
(out / "model-path.txt").write_text(str(model) + "\n")
print(f"model {model.name}: input {shape}")
PY
}
model_on() {  # run the model case on an emulated core and compare with x86
    use_cpu "$1"
    local model
    model=$(cat "$OUT/model-path.txt")
    model=${model/#$OUT//tmp/tilecam-test}
    model=${model/#$SOURCE_DIR//opt/src/tilecam}
    inside /opt/tilecam/venv/bin/python - "$model" <<'PY'
import sys, time
import numpy as np
import onnxruntime as ort

session = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
x = np.load("/tmp/tilecam-test/model-input.npy")
started = time.perf_counter()
y = session.run(None, {session.get_inputs()[0].name: x})[0]
ms = (time.perf_counter() - started) * 1000
expected = np.load("/tmp/tilecam-test/model-x86.npy")
diff = float(np.abs(y - expected).max())
same = bool((y.argmax(1) == expected.argmax(1)).all())
print(f"numpy {np.__version__}: batch {x.shape[0]} in {ms:.0f} ms (emulated), max |arm64 - x86| = {diff:.2e}, "
      f"same labels: {same}")
sys.exit(0 if diff < 1e-4 and same else 1)
PY
}
if [ -x "$HOST_PYTHON" ] && timed "x86 reference output of the model" make_model_case; then
    for cpu in cortex-a72 cortex-a76; do
        say "onnxruntime on an emulated $cpu"
        timed "onnxruntime on an emulated $cpu, same output as x86" model_on "$cpu"
        timed "tilecam doctor --only packages,model on $cpu" \
            inside /opt/tilecam/venv/bin/tilecam doctor --only packages,model --data-dir /tmp
    done
    use_cpu cortex-a72
fi

# ------------------------------------------------------------------------------------ the service's own command
# What systemd's ExecStart runs, as the service user with the installed config (demo source, another port so as not
# to collide with anything on this machine), until its web app answers /health from outside the root.
HEALTH_PORT=${HEALTH_PORT:-18765}
run_service_command() {
    local pid status=0
    as_service tilecam run --config /etc/tilecam/config.toml --source demo --port "$HEALTH_PORT" \
        --max-seconds 60 > "$OUT/run.txt" 2>&1 &
    pid=$!
    "$HOST_PYTHON" - "$HEALTH_PORT" > "$OUT/health.json" <<'PY' || status=$?
import json, sys, time, urllib.request
deadline = time.monotonic() + 200
while time.monotonic() < deadline:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health", timeout=10) as r:
            report = json.load(r)
    except OSError:
        time.sleep(2)
        continue
    print(json.dumps(report, indent=1))
    print(f"/health answered after {200 - (deadline - time.monotonic()):.0f} s: ok={report.get('ok')}",
          file=sys.stderr)
    sys.exit(0 if report.get("ok") else 1)
print("no answer from /health", file=sys.stderr)
sys.exit(1)
PY
    wait "$pid" || true  # it stops by itself (--max-seconds)
    tail -n 5 "$OUT/run.txt"
    return "$status"
}
if [ -x "$HOST_PYTHON" ]; then
    say "tilecam run (the unit's ExecStart) as user tilecam; waiting for /health on port $HEALTH_PORT"
    timed "tilecam run as the service user: /health answers ok" run_service_command
fi

# ------------------------------------------------------------------------------------ same results as x86
compare() {  # compare LABEL ARGS…: tilecam ARGS on x86 and inside, outputs must match (timings filtered)
    local label=$1; shift
    local name=${label// /_}
    local host_args=() arm_args=() a
    for a in "$@"; do
        host_args+=("${a//@SHARED@/$SHARED}")
        arm_args+=("${a//@SHARED@//srv/shared}")
    done
    if ! "$HOST_TILECAM" "${host_args[@]}" > "$OUT/$name.x86.txt" 2>&1; then
        echo "(exit status non-zero)" >> "$OUT/$name.x86.txt"
    fi
    if ! as_service tilecam "${arm_args[@]}" > "$OUT/$name.arm64.txt" 2>&1; then
        echo "(exit status non-zero)" >> "$OUT/$name.arm64.txt"
    fi
    # Timings and paths differ between the machines; everything else must be the same.
    local filter='s#/srv/shared#SHARED#g; s#'"$SHARED"'#SHARED#g; s/[0-9.]+ ?(ms|s)\b/TIME/g'
    diff <(sed -E "$filter" "$OUT/$name.x86.txt") <(sed -E "$filter" "$OUT/$name.arm64.txt")
}

have_command() { "$HOST_TILECAM" "$1" --help >/dev/null 2>&1; }

if have_command gcg; then
    say "tilecam gcg verify on the shared games (x86 and arm64)"
    mapfile -t games < <(cd "$SHARED/data/gcg" && ls ./*.gcg)
    timed "tilecam gcg verify, ${#games[@]} shared games, same output as x86" \
        compare "gcg verify" gcg verify "${games[@]/#./@SHARED@/data/gcg}"
else
    RESULTS+=("tilecam gcg verify | – | not built yet (no \`tilecam gcg\` command)")
fi
if have_command read; then
    # One photo from a game the model was trained on (01) and one from a game it has not seen (04).
    for photo in data/real-boards/scrabscrap/game01/image-27.jpg data/real-boards/scrabscrap/game04/image-27.jpg; do
        game=${photo#data/real-boards/scrabscrap/}
        say "tilecam read $photo (x86 and arm64)"
        timed "tilecam read ${game%%/*} photo, same board as x86" \
            compare "read ${game%%/*}" read "@SHARED@/$photo" --tiles german
    done
else
    RESULTS+=("tilecam read | – | not built yet (no \`tilecam read\` command)")
fi

# ------------------------------------------------------------------------------------ report
say "summary (emulated $CPU, results in $OUT)"
echo "| step | time | result |"
echo "| --- | --- | --- |"
failed=0
for r in "${RESULTS[@]}"; do
    echo "| $r |"
    case "$r" in *FAILED*) failed=1 ;; esac
done
exit "$failed"
