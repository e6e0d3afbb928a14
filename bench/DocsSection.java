import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** Puts a run's Markdown into docs/PERFORMANCE.md, between its two markers, in place of the run before. */
final class DocsSection {
    private static final String START = "<!-- bench/run.sh writes its latest run from here -->";
    private static final String END = "<!-- to here -->";

    private DocsSection() {}

    /** Replaces what stands between the markers of {@code docs}; warns and leaves the file as it is without them. */
    static void write(Path docs, String[] args, String results) throws IOException, InterruptedException {
        String text = Files.readString(docs);
        int start = text.indexOf(START);
        int end = text.indexOf(END);
        if (start < 0 || end < start) {
            System.out.println("bench: " + docs + " has no '" + START + "' ... '" + END + "'; not written there");
            return;
        }
        String arguments = shown(args);
        String block = START + "\n\nWritten by `bench/run.sh" + (arguments.isBlank() ? "" : " " + arguments) + "` at "
                + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ", commit " + commit() + ":\n\n"
                + results.strip() + "\n\n";
        Files.writeString(docs, text.substring(0, start) + block + text.substring(end));
        System.out.println("Written into " + docs);
    }

    /** The command line as its user typed it: bench/run.sh adds the README's JVM options, which the Machine line shows. */
    private static String shown(String[] args) {
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--java-options")) {
                i++;
            } else {
                shown.add(args[i]);
            }
        }
        return String.join(" ", shown);
    }

    /** The checked-out commit, and whether the sources or the bench differ from it. */
    private static String commit() throws InterruptedException {
        try {
            String head = Processes.run(List.of("git", "rev-parse", "--short", "HEAD"), Duration.ofSeconds(10)).strip();
            List<String> status =
                    List.of("git", "status", "--porcelain", "--untracked-files=no", "--", "src", "pom.xml", "bench");
            String changes = Processes.run(status, Duration.ofSeconds(10)).strip();
            return head + (changes.isEmpty() ? "" : " with uncommitted changes to the sources");
        } catch (IOException | IllegalStateException e) {
            return "unknown (no git)";
        }
    }
}
