package dev.padlock.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProblemsTest {

    private static final String METHOD = "com.acme.Shop#reserve(String)";

    @Test
    void everyShapeReadsInvalidSubjectReasonFix() {
        Problems problems = new Problems();
        problems.invalidMember(METHOD, "waitTime", "'soon' is not a duration", "Fix the value");
        problems.invalidMethod(METHOD, "a static method is not intercepted", "Make it an instance method");
        problems.invalidLockKey("padlock.locks.\"stock\".type", METHOD, "'x' is not a LockType", "Use fair");
        problems.invalidKey("padlock.wait-time", "'x' is not a duration; use 5s", null);
        problems.missingKey("padlock.redis.nodes", "padlock.redis.mode is cluster", "List the servers");
        assertThat(problems.list())
                .containsExactly(
                        "Invalid @Locked.waitTime on " + METHOD + ": 'soon' is not a duration. Fix the value.",
                        "Invalid @Locked on " + METHOD + ": a static method is not intercepted. Make it an instance"
                                + " method.",
                        "Invalid padlock.locks.\"stock\".type (lock of " + METHOD + "): 'x' is not a LockType. Use"
                                + " fair.",
                        "Invalid padlock.wait-time: 'x' is not a duration; use 5s.",
                        "Missing padlock.redis.nodes: padlock.redis.mode is cluster. List the servers.");
    }

    @Test
    void aSummaryCountsAndListsEveryProblemInOrder() {
        Problems problems = new Problems();
        assertThat(problems.isEmpty()).isTrue();
        problems.invalidKey("padlock.a", "one", "Fix a");
        problems.addAll(List.of("Invalid padlock.b: two. Fix b."));
        assertThat(problems.isEmpty()).isFalse();
        assertThat(problems.size()).isEqualTo(2);
        assertThat(problems.summary("Padlock found"))
                .isEqualTo("Padlock found 2 problem(s):\n - Invalid padlock.a: one. Fix a.\n - Invalid padlock.b: two."
                        + " Fix b.");
    }

    @Test
    void theListIsACopy() {
        Problems problems = new Problems();
        List<String> before = problems.list();
        problems.invalidKey("padlock.a", "one", null);
        assertThat(before).isEmpty();
    }
}
