#!/usr/bin/env bash
# Prints the JVM options of the README's run command ("java <options> -jar target/pulseledger.jar
# serve"), so every benchmark script starts the server the way the README tells people to run it.
set -euo pipefail
cd "$(dirname "$0")/.."

readme_command="$(grep -oE 'java( +-[^ ]+)* +-jar target/pulseledger\.jar serve' README.md | head -1 || true)"
if [[ -z "$readme_command" ]]; then
  echo "bench: README.md has no 'java ... -jar target/pulseledger.jar serve' command to copy" >&2
  exit 2
fi
sed -E 's/^java *//; s/ *-jar target\/pulseledger\.jar serve$//' <<<"$readme_command"
