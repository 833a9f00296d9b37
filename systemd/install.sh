#!/usr/bin/env bash
# Install the Ultimate Texas Hold'em cabinet on Raspberry Pi OS (Debian bookworm based).
# Run as root from a checkout:  sudo ./systemd/install.sh --witness-dir DIR [--no-start]
# Creates the uth user, installs the code under /opt/uth with its own virtual
# environment, a configuration in /etc/uth, the ledger directory /var/lib/uth,
# the udev rules and the systemd unit, then enables (and starts) the kiosk.
# --witness-dir DIR: a folder on another device than /var/lib/uth (a USB key or a second
# card mounted at boot) where the ledger's anchor and install marker live; the script
# refuses a folder on the ledger's own filesystem or on another partition of its disk,
# because one image of that disk put back would roll the ledger back unseen.
# Operator accounts: a cabinet has no default PINs.  The script asks for an attendant,
# a technician and a manager (name and PIN, 6 to 12 digits, not all one digit, one PIN
# per person), or takes them from UTH_OPERATORS ("name role pin" lines), and writes them
# hashed (salted PBKDF2) into the configuration.
set -euo pipefail

PREFIX=/opt/uth
CONF_DIR=/etc/uth
STATE_DIR="${UTH_STATE_DIR:-/var/lib/uth}"
KEY_DIR=/etc/uth/key
SERVICE=uth-kiosk.service
START=1
WITNESS_DIR=""

while [ "$#" -gt 0 ]; do
    case "$1" in
        --no-start) START=0 ;;
        --witness-dir) shift; WITNESS_DIR="${1:-}" ;;
        --witness-dir=*) WITNESS_DIR="${1#--witness-dir=}" ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
    shift
done

if [ -z "$WITNESS_DIR" ]; then
    echo "name the second medium: --witness-dir DIR (a folder on another device than" >&2
    echo "$STATE_DIR's disk, e.g. a USB key's mount point)" >&2
    exit 2
fi
case "$WITNESS_DIR" in
    /*) ;;
    *) echo "--witness-dir must be an absolute path, not $WITNESS_DIR" >&2; exit 2 ;;
esac

# Another DEVICE than the ledger's: not its filesystem, not another partition of its
# disk (one image of the card would put both back), not a filesystem with no disk under
# it (tmpfs, overlay; accepted with UTH_WITNESS_WITHOUT_DISK=1 in tests and containers
# only).  The check is the power-up's own (kiosk/ledger/media.py, standard library).
echo "== second medium $WITNESS_DIR"
if command -v python3 >/dev/null; then
    if ! PYTHONPATH="$(cd "$(dirname "$0")/.." && pwd)" python3 -m kiosk.ledger.media "$STATE_DIR" "$WITNESS_DIR"; then
        echo "mount another device there (and in /etc/fstab), then run again" >&2
        exit 2
    fi
else
    # no python3 yet (a minimal root): the filesystems at least; power-up checks the disks
    device_of() {
        local p="$1"
        while [ ! -e "$p" ]; do p="$(dirname "$p")"; done
        stat -c %d "$p"
    }
    if [ "$(device_of "$WITNESS_DIR")" = "$(device_of "$STATE_DIR")" ]; then
        echo "$WITNESS_DIR is on the same filesystem as the ledger directory $STATE_DIR:" >&2
        echo "mount another device there (and in /etc/fstab), then run again" >&2
        exit 2
    fi
    echo "   python3 missing: the disks under $WITNESS_DIR are checked at every power-up"
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "run as root (sudo $0)" >&2
    exit 1
fi

SRC="$(cd "$(dirname "$0")/.." && pwd)"

echo "== packages"
apt-get update
apt-get install -y --no-install-recommends python3 python3-venv python3-dev \
    libsdl2-2.0-0 libsdl2-ttf-2.0-0 libsdl2-mixer-2.0-0 libsdl2-image-2.0-0 libdrm2 libgbm1 alsa-utils

echo "== operator accounts"
# Hashed with the checkout's kiosk.pins (standard library only), which refuses weak or
# shared PINs; nothing of the cabinet is installed until they are accepted.
hash_operators() {
    PYTHONPATH="$SRC" python3 -m kiosk.pins
}
ask_operators() {
    local role name pin again
    for role in attendant technician manager; do
        read -r -p "  $role's name: " name
        while true; do
            read -r -s -p "  $name's PIN (6-12 digits): " pin; echo >&2
            read -r -s -p "  again: " again; echo >&2
            [ "$pin" = "$again" ] && break
            echo "  the two PINs differ; again" >&2
        done
        printf '%s %s %s\n' "$name" "$role" "$pin"
    done
}
OPERATORS=""
if [ -f "$CONF_DIR/cabinet.toml" ] && grep -q '^\[\[operators\]\]' "$CONF_DIR/cabinet.toml"; then
    echo "   kept: the accounts in $CONF_DIR/cabinet.toml"
elif [ -n "${UTH_OPERATORS:-}" ]; then
    OPERATORS="$(printf '%s\n' "$UTH_OPERATORS" | hash_operators)"
elif [ -t 0 ]; then
    OPERATORS="$(ask_operators | hash_operators)"
else
    echo "no operator accounts: run interactively, or set UTH_OPERATORS to 'name role pin' lines" >&2
    exit 2
fi

echo "== user"
if ! id uth >/dev/null 2>&1; then
    useradd --system --home-dir "$STATE_DIR" --shell /usr/sbin/nologin uth
fi
# tss: the TPM's device (/dev/tpmrm0), where tpm2-tools is installed
for group in video input dialout audio render tss; do
    if getent group "$group" >/dev/null; then
        usermod -aG "$group" uth
    fi
done

echo "== code in $PREFIX"
mkdir -p "$PREFIX"
# copy the checkout without its virtual environment, caches and local data
tar -C "$SRC" --exclude=.venv --exclude=.git --exclude=var --exclude=test-artifacts \
    --exclude='__pycache__' -cf - . | tar -C "$PREFIX" -xf -
python3 -m venv "$PREFIX/.venv"
"$PREFIX/.venv/bin/pip" install --upgrade pip
"$PREFIX/.venv/bin/pip" install "$PREFIX"
chown -R root:root "$PREFIX"
chmod -R go-w "$PREFIX"

echo "== witness counter"
# A monotonic counter the ledger moves at power-up and power-down (kiosk/ledger/witness.py):
# a TPM 2.0 NV counter index when tpm2-tools finds a TPM (no copy of a medium can move it
# back), else a file on the second medium.
TPM_INDEX=0x1500016
if command -v tpm2_nvdefine >/dev/null && command -v tpm2_getcap >/dev/null \
    && tpm2_getcap properties-fixed >/dev/null 2>&1; then
    if ! tpm2_nvreadpublic "$TPM_INDEX" >/dev/null 2>&1; then
        tpm2_nvdefine -C o -s 8 -a "ownerread|ownerwrite|nt=counter" "$TPM_INDEX" >/dev/null
        # a counter index reads only once it has been incremented
        tpm2_nvincrement -C o "$TPM_INDEX"
    fi
    COUNTER="tpm:$TPM_INDEX"
    echo "   witness counter: $COUNTER (the TPM's NV counter index)"
else
    COUNTER="file:$WITNESS_DIR/uth.counter"
    echo "   witness counter: $COUNTER (no TPM found by tpm2-tools: a file on the second medium)"
fi

echo "== configuration in $CONF_DIR"
mkdir -p "$CONF_DIR"
if [ ! -f "$CONF_DIR/cabinet.toml" ]; then
    cat > "$CONF_DIR/cabinet.toml" <<CONF
# Cabinet configuration (see kiosk/config.py).  Operator accounts are [[operators]]
# tables; make a hashed PIN with: printf 'name role pin\n' | python3 -m kiosk.pins
demo = false
installed = true
db_path = "$STATE_DIR/uth.db"
ledger_key_path = "$KEY_DIR/ledger.key"
# the witnesses of the ledger, on another medium than db_path (refused otherwise)
anchor_path = "$WITNESS_DIR/uth.anchor"
install_marker = "$WITNESS_DIR/uth.install"
witness_counter = "$COUNTER"
paytable = "$PREFIX/paytables/standard.toml"
machine_number = "0001"
casino_name = "Demo Casino"
validator_port = "sim"
printer_port = "sim"
CONF
fi
if [ -n "$OPERATORS" ]; then
    printf '\n%s\n' "$OPERATORS" >> "$CONF_DIR/cabinet.toml"
fi
chown root:uth "$CONF_DIR" "$CONF_DIR/cabinet.toml"
chmod 0750 "$CONF_DIR"
chmod 0640 "$CONF_DIR/cabinet.toml"

if ! grep -q '^installed = true' "$CONF_DIR/cabinet.toml"; then
    echo "   $CONF_DIR/cabinet.toml predates the second medium: add installed = true," >&2
    echo "   anchor_path and install_marker under $WITNESS_DIR by hand (see kiosk/config.py)" >&2
fi
if ! grep -q '^witness_counter = ' "$CONF_DIR/cabinet.toml"; then
    echo "   $CONF_DIR/cabinet.toml has no witness counter: add witness_counter = \"$COUNTER\"" >&2
    echo "   above its first [[operators]] table by hand" >&2
fi

echo "== ledger directory $STATE_DIR"
install -d -o uth -g uth -m 0750 "$STATE_DIR"
install -d -o uth -g uth -m 0750 "$WITNESS_DIR"

echo "== cabinet key in $KEY_DIR (outside the ledger directory, readable by uth only)"
# The key MACs every ledger row; it is created once and never replaced.
install -d -o uth -g uth -m 0700 "$KEY_DIR"
runuser -u uth -- "$PREFIX/.venv/bin/uth" audit keygen --config "$CONF_DIR/cabinet.toml"

echo "== exact RTP of the shipped paytables (once; minutes on a Pi)"
# The controller refuses a paytable whose RTP is not known; the PAR cache lives in the
# state directory because the service cannot read home directories (ProtectHome).
install -d -o uth -g uth -m 0750 "$STATE_DIR/par-cache"
for table in "$PREFIX"/paytables/*.toml; do
    # with the configuration, the proof is signed with the cabinet key just made: the
    # cabinet knows every shipped table's RTP from its first start
    runuser -u uth -- "$PREFIX/.venv/bin/uth" paytable check "$table" \
        --config "$CONF_DIR/cabinet.toml" --cache-dir "$STATE_DIR/par-cache" || echo "   (refused: $table)"
done

echo "== udev rules"
install -m 0644 "$SRC/systemd/99-uth-devices.rules" /etc/udev/rules.d/99-uth-devices.rules
# udevd runs on a booted cabinet, not in a container nor in a chroot building an SD
# image: there the rules take effect at the next boot
if command -v udevadm >/dev/null && udevadm control --ping >/dev/null 2>&1; then
    udevadm control --reload-rules
    udevadm trigger --subsystem-match=tty --subsystem-match=input || true
else
    echo "   udevd is not running here: the rules take effect at the next boot"
fi

echo "== systemd unit"
install -m 0644 "$SRC/systemd/$SERVICE" "/etc/systemd/system/$SERVICE"
# the folders the sandboxed service may write besides its ledger folder and key folder
# (named in the unit): the second medium chosen here
install -d -m 0755 "/etc/systemd/system/$SERVICE.d"
cat > "/etc/systemd/system/$SERVICE.d/witness.conf" <<UNIT
# written by install.sh: the second medium (--witness-dir) holds the ledger's anchor,
# install marker and witness counter file, so the service writes there too
[Service]
ReadWritePaths=$WITNESS_DIR
UNIT
chmod 0644 "/etc/systemd/system/$SERVICE.d/witness.conf"
# the kiosk owns the console: no login prompt on tty1
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl disable --now getty@tty1.service 2>/dev/null || true
    systemctl enable "$SERVICE"
else
    # no systemd running (a chroot building an SD image): enabling only makes the links,
    # the kiosk starts at the next boot
    systemctl disable getty@tty1.service 2>/dev/null || true
    systemctl enable "$SERVICE"
    START=0
    echo "   systemd is not running here: $SERVICE starts at the next boot"
fi
if [ "$START" -eq 1 ]; then
    systemctl restart "$SERVICE"
    systemctl --no-pager status "$SERVICE" || true
fi
echo "installed: journalctl -u $SERVICE -f to follow the kiosk"
