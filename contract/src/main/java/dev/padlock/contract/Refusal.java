package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An application a runtime must refuse before it runs, and what the refusal must say: Weld reports each problem as a
 * definition error at start-up, Quarkus all of them in one build error, and both word them alike. Each runner
 * starts {@link #application()} its own way and hands what it threw to {@link #check(Throwable)}.
 *
 * @param problems how many problems Quarkus lists in its one build error ({@code Padlock found N problem(s)}), or 0
 *     for a problem it reports on its own, outside that list
 * @param fragments what the failure must contain
 * @param absent what it must not contain, such as the names of beans in the application that are fine
 */
public record Refusal(ApplicationUnderTest application, int problems, List<String> fragments, List<String> absent) {

    public Refusal {
        fragments = List.copyOf(fragments);
        absent = List.copyOf(absent);
    }

    public static Refusal of(ApplicationUnderTest application, int problems, String... fragments) {
        return new Refusal(application, problems, Arrays.asList(fragments), List.of());
    }

    /** This refusal, whose failure must also not mention any of {@code texts}. */
    public Refusal without(String... texts) {
        List<String> all = new ArrayList<>(absent);
        all.addAll(Arrays.asList(texts));
        return new Refusal(application, problems, fragments, all);
    }

    /** One application with all these problems at once, refused with everything each refusal says. */
    public static Refusal together(Refusal... refusals) {
        List<ApplicationUnderTest> applications = new ArrayList<>();
        List<String> fragments = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        int problems = 0;
        for (Refusal refusal : refusals) {
            applications.add(refusal.application());
            fragments.addAll(refusal.fragments());
            absent.addAll(refusal.absent());
            problems += refusal.problems();
        }
        return new Refusal(ApplicationUnderTest.together(applications), problems, fragments, absent);
    }

    /**
     * This refusal of an application that also has {@code accepted}'s beans and configuration, which the failure must
     * not name: the runtime refuses what is wrong, not everything beside it.
     */
    public Refusal beside(ApplicationUnderTest accepted) {
        List<String> all = new ArrayList<>(absent);
        for (Class<?> bean : accepted.beans()) {
            all.add(bean.getName());
        }
        return new Refusal(ApplicationUnderTest.together(List.of(application, accepted)), problems, fragments, all);
    }

    /** Fails unless {@code failure} says everything this refusal must say, and nothing it must not. */
    public void check(Throwable failure) {
        String text = text(failure);
        assertThat(text).contains(fragments);
        for (String unwanted : absent) {
            assertThat(text).doesNotContain(unwanted);
        }
    }

    /**
     * Everything a failure says: its own message, its causes' and what it suppressed (Weld adds the second and later
     * definition errors there).
     */
    public static String text(Throwable failure) {
        StringBuilder text = new StringBuilder();
        append(failure, text, 0);
        return text.toString();
    }

    private static void append(Throwable failure, StringBuilder text, int depth) {
        if (failure == null || depth > 20) {
            return;
        }
        text.append(failure).append('\n');
        for (Throwable suppressed : failure.getSuppressed()) {
            append(suppressed, text, depth + 1);
        }
        append(failure.getCause(), text, depth + 1);
    }
}
