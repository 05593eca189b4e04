#!/usr/bin/env bash
# tools/install_python.sh [PREFIX] — installs the Python package `tsread` for Debian's python3,
# offline: the Debian packages it needs (tools/setup.sh), a Release build of the module, and
# `cmake --install --component python` into PREFIX (default /usr/local), i.e.
# PREFIX/lib/python3.X/dist-packages/tsread, which Debian's python3 searches for /usr/local.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
tools/setup.sh
tools/build.sh release tsread_python
cmake --install build/release --component python --prefix "$prefix"
echo "installed: $(ls -d "$prefix"/lib/python3*/dist-packages/tsread)"
