package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./pulseledger} launcher on a machine whose default {@code java} is 17 and whose
 * JAVA_HOME is unset: it finds a JDK 21+ in the install folders, builds the jar when the sources are
 * newer, runs the tests ({@code ./pulseledger test}, the README's test command) with the JDK it found,
 * and names what to install when there is no JDK 21+ at all.
 */
class LauncherIT {
    private static final Path LAUNCHER = Path.of("pulseledger").toAbsolutePath();
    private static final Path JAR = Path.of("target", "pulseledger.jar").toAbsolutePath();
    /** The JDK running the tests is 21 or newer; its parent folder stands for /usr/lib/jvm. */
    private static final Path JVM_DIR = Path.of(System.getProperty("java.home")).getParent();

    @TempDir
    Path temp;

    /** A {@code java} on PATH that says it is 17, as Debian 12's default does. */
    private Path pathWithJava17() throws IOException {
        Path bin = Files.createDirectories(temp.resolve("java17/bin"));
        executable(bin.resolve("java"), "#!/bin/sh\necho '    java.specification.version = 17' >&2\nexit 1\n");
        return bin;
    }

    @Test
    void findsAJdk21InTheInstallFoldersWhenTheDefaultJavaIs17() throws Exception {
        Result result = run(LAUNCHER, Map.of("PULSELEDGER_JVM_DIRS", JVM_DIR.toString()), "serve", "-V");
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output().strip()).isEqualTo("Pulseledger " + BuildInfo.version());
    }

    @Test
    void namesWhatToInstallWhenNoJdk21IsAnywhere() throws Exception {
        Result result = run(
                LAUNCHER, Map.of("PULSELEDGER_JVM_DIRS", temp.resolve("none").toString()), "serve");
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.output())
                .contains("needs Java 21 or newer")
                .contains("openjdk-21-jdk")
                .contains("JAVA_HOME")
                .doesNotContain("Exception");
    }

    @Test
    void buildsTheJarWithTheWrapperOnlyWhenTheSourcesAreNewer() throws Exception {
        // A copy of the project's layout whose ./mvnw records its call and "builds" by copying the jar.
        Path project = Files.createDirectories(temp.resolve("project"));
        Path launcher = Files.copy(LAUNCHER, project.resolve("pulseledger"));
        Files.createDirectories(project.resolve("src/main/java"));
        Path source = Files.writeString(project.resolve("src/main/java/Some.java"), "class Some {}");
        Files.writeString(project.resolve("pom.xml"), "<project/>");
        Path calls = project.resolve("mvnw-calls");
        executable(
                project.resolve("mvnw"),
                "#!/bin/sh\necho \"JAVA_HOME=$JAVA_HOME $*\" >> '" + calls + "'\nmkdir -p target\ncp '" + JAR
                        + "' target/pulseledger.jar\n");
        Map<String, String> env = Map.of("PULSELEDGER_JVM_DIRS", JVM_DIR.toString());

        Result first = run(launcher, env, "serve", "-V");
        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(first.output()).contains("Pulseledger " + BuildInfo.version());
        assertThat(Files.readAllLines(calls))
                .singleElement(STRING)
                .contains("package")
                .contains("JAVA_HOME=" + JVM_DIR);

        Files.setLastModifiedTime(
                project.resolve("target/pulseledger.jar"),
                FileTime.from(Instant.now().plusSeconds(60)));
        assertThat(run(launcher, env, "serve", "-V").exitCode()).isZero();
        assertThat(Files.readAllLines(calls))
                .as("no build while the jar is newer")
                .hasSize(1);

        Files.setLastModifiedTime(source, FileTime.from(Instant.now().plusSeconds(120)));
        assertThat(run(launcher, env, "serve", "-V").exitCode()).isZero();
        assertThat(Files.readAllLines(calls))
                .as("a build once a source is newer")
                .hasSize(2);
    }

    @Test
    void theTestCommandFindsAJdk21WhenTheDefaultJavaIs17() throws Exception {
        Result result = run(LAUNCHER, Map.of("PULSELEDGER_JVM_DIRS", JVM_DIR.toString()), "test", "--print-java");

        assertThat(result.exitCode()).as(result.output()).isZero();
        Path jdk = Path.of(result.output().strip());
        assertThat(jdk.getParent()).isEqualTo(JVM_DIR);
        assertThat(jdk.resolve("bin/javac")).isExecutable();
    }

    @Test
    void theTestCommandRunsTheWrappersVerifyWithThatJdkAndSumsUpWhatWasSkipped() throws Exception {
        // A copy of the project's layout whose ./mvnw records its call, leaves a skipped test's line as the
        // JUnit listener does, and fails as a failing test run would.
        Path project = Files.createDirectories(temp.resolve("project"));
        Path launcher = Files.copy(LAUNCHER, project.resolve("pulseledger"));
        Path calls = project.resolve("mvnw-calls");
        String skipped = "This test needs pgbouncer: apt-get install pgbouncer (PgBouncerTest)";
        executable(
                project.resolve("mvnw"),
                "#!/bin/sh\necho \"JAVA_HOME=$JAVA_HOME $*\" >> '" + calls + "'\nmkdir -p target\n"
                        + "echo '" + skipped + "' > target/skipped-tests-1.txt\n"
                        + "echo '" + skipped + "' > target/skipped-tests-2.txt\n"
                        + "exit 3\n");

        Result result = run(
                launcher, Map.of("PULSELEDGER_JVM_DIRS", JVM_DIR.toString()), "test", "-Dtest=LedgerStoreTest", "-B");

        assertThat(result.exitCode()).as("the wrapper's exit code").isEqualTo(3);
        assertThat(Files.readAllLines(calls))
                .singleElement(STRING)
                .startsWith("JAVA_HOME=" + JVM_DIR)
                .endsWith(" verify -Dtest=LedgerStoreTest -B");
        assertThat(result.output()).contains("Skipped tests").contains("2 × " + skipped);
    }

    private record Result(int exitCode, String output) {}

    private Result run(Path launcher, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("JAVA_HOME");
        builder.environment().put("PATH", pathWithJava17() + ":/usr/bin:/bin");
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output);
    }

    private static void executable(Path file, String script) throws IOException {
        Files.writeString(file, script);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
