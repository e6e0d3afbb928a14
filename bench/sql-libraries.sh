#!/usr/bin/env bash
# jOOQ and Jdbi against today's hand-bound JDBC on a spend and a listing (docs/PERFORMANCE.md, issue 38).
# Options: --rounds N (5) --seconds N (5) --warmup-seconds N (2) --stores sqlite,postgresql --postgres-url URL
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
classpath_file=target/sql-libraries.classpath
if [[ ! -s $classpath_file || bench/sql-libraries/pom.xml -nt $classpath_file ]]; then
  mkdir -p target
  ./mvnw -B -q -f bench/sql-libraries/pom.xml dependency:build-classpath -Dmdep.outputFile="$PWD/$classpath_file"
fi
exec "$JAVA" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xmx256m -cp "$(cat "$classpath_file")" \
  bench/sql-libraries/SqlLibraries.java "$@"
