#!/usr/bin/env bash
# Install the Debian/Ubuntu packages Purser needs that this machine lacks.
#   tools/system-deps.sh run    what the app needs (Python venv, GL for the Kivy window)
#   tools/system-deps.sh test   that plus the firmware toolchain and simulator for the tests
# Installs with apt-get as root, or through sudo when it can ask for no password;
# otherwise prints the command to run and fails.
set -euo pipefail

what=${1:-run}
python=${PYTHON:-python3}

run_pkgs=(libgl1 libegl1 libmtdev1)
test_pkgs=(gcc-avr avr-libc binutils-avr simavr libsimavr-dev libelf-dev gcc libc6-dev make arduino-core-avr)

pkgs=("${run_pkgs[@]}")
[ "$what" = test ] && pkgs+=("${test_pkgs[@]}")

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
# A Python without ensurepip (Debian's python3 before python3-venv) cannot make a venv.
if ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then
  missing+=(python3-venv)
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "Purser needs these packages (Debian names): ${missing[*]}" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  echo "Purser needs these Debian packages; install them, then run this again:" >&2
  echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
