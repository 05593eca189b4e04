#!/usr/bin/env bash
# Installs tsread's build and test dependencies from Debian packages (idempotent: a quick no-op
# when everything is present).
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libabsl-dev libgtest-dev libgmock-dev googletest libbenchmark-dev nlohmann-json3-dev
  liblz4-dev libzstd-dev libsnappy-dev zlib1g-dev liblzma-dev liblzo2-dev
  clang libclang-rt-dev
  python3-dev python3-pybind11 pybind11-dev python3-numpy python3-pandas python3-dask python3-distributed python3-pytest
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
