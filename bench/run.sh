#!/usr/bin/env bash
# The Pulseledger benchmark in one command (docs/PERFORMANCE.md). Options: bench/run.sh --help
set -euo pipefail
cd "$(dirname "$0")/.."

# The server is started exactly as the README's run command starts it, with these JVM options.
README_JAVA_OPTIONS="${BENCH_JAVA_OPTIONS-}"

for tool in wrk pgbench; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install -y wrk postgresql-client)" >&2; exit 2; }
done
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if [[ ! -f target/pulseledger.jar || -n "$(find src pom.xml -newer target/pulseledger.jar -print -quit)" ]]; then
  ./mvnw -B -q package -DskipTests
fi
exec "$JAVA" --enable-native-access=ALL-UNNAMED -cp target/pulseledger.jar bench/Bench.java --java-options "$README_JAVA_OPTIONS" "$@"
