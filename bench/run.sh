#!/usr/bin/env bash
# The Pulseledger benchmark in one command (docs/PERFORMANCE.md). Options: bench/run.sh --help
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in wrk pgbench; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install -y wrk postgresql-client)" >&2; exit 2; }
done
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if [[ ! -f target/pulseledger.jar || -n "$(find src pom.xml -newer target/pulseledger.jar -print -quit)" ]]; then
  ./mvnw -B -q package -DskipTests
fi

# The server starts with the JVM options of the README's run command, so what is measured is what
# the README tells people to run.
java_options="$(bench/java-options.sh)"

exec "$JAVA" --enable-native-access=ALL-UNNAMED -cp target/pulseledger.jar bench/Bench.java \
  --java-options "${BENCH_JAVA_OPTIONS-$java_options}" "$@"
